/** The stream ended before the model said why it stopped: the connection was cut. */
export class StreamCutError extends Error {
  constructor() {
    super("the model's response stream ended before the model finished");
    this.name = "StreamCutError";
  }
}
