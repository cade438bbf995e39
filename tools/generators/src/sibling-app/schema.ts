/** What an app made by the generator is: a Node.js program, or a web page. */
export type SiblingAppKind = 'node' | 'browser';

/** The options of `nx g @petstore/tools:sibling-app`, as schema.json declares them. */
export interface SiblingAppSchema {
  name: string;
  kind?: SiblingAppKind;
}
