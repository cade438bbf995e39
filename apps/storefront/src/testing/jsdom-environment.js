// jsdom has no fetch: its window gets Node's Response and Headers, with which the tests' fetch answers the client.
const { TestEnvironment } = require('jest-environment-jsdom');

module.exports = class JsdomWithResponses extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global.Response = Response;
    this.global.Headers = Headers;
  }
};
