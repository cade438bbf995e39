/** Query of an operation that takes no query parameters: validation refuses every one, naming it. */
export class NoQuery {}
