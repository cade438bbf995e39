// jsdom has no fetch: its window gets Node's Response and Headers, with which the tests' fetch answers the client, and
// the streams and text codecs a browser has, with which the client reads the event stream.
const { TestEnvironment } = require('jest-environment-jsdom');

module.exports = class JsdomWithResponses extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    Object.assign(this.global, { Response, Headers, ReadableStream, TextEncoder, TextDecoder });
  }
};
