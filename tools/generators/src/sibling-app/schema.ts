/** The options of `nx g @petstore/tools:sibling-app`, as schema.json declares them. */
export interface SiblingAppSchema {
  name: string;
  kind?: 'node';
}
