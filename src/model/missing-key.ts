import type {
  LanguageModelV3,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamResult,
} from "@ai-sdk/provider";

/** The environment variable that should hold a provider's API key is not set. */
export class MissingApiKeyError extends Error {
  constructor(readonly variable: string) {
    super(`${variable} is not set`);
    this.name = "MissingApiKeyError";
  }
}

/**
 * Stands in for a provider model whose key is missing. The agent still starts (an IDE
 * shows a dead process badly); each prompt then ends with a message naming the variable.
 */
export class MissingKeyModel implements LanguageModelV3 {
  readonly specificationVersion = "v3";
  readonly supportedUrls: Record<string, RegExp[]> = {};

  constructor(
    readonly provider: string,
    readonly modelId: string,
    private readonly variable: string,
  ) {}

  doGenerate(): Promise<LanguageModelV3GenerateResult> {
    return Promise.reject(new MissingApiKeyError(this.variable));
  }

  doStream(): Promise<LanguageModelV3StreamResult> {
    return Promise.reject(new MissingApiKeyError(this.variable));
  }
}
