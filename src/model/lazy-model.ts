import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamResult,
} from "@ai-sdk/provider";

/**
 * A provider model built on its first request: the provider's SDK is loaded then, not at
 * startup, so an agent that has not called its model yet has not paid for loading it.
 */
export class LazyModel implements LanguageModelV3 {
  readonly specificationVersion = "v3";
  private loading: Promise<LanguageModelV3> | undefined;

  constructor(
    readonly provider: string,
    readonly modelId: string,
    private readonly load: () => Promise<LanguageModelV3>,
  ) {}

  get supportedUrls(): PromiseLike<Record<string, RegExp[]>> {
    return this.model().then((model) => model.supportedUrls);
  }

  doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    return this.model().then((model) => model.doGenerate(options));
  }

  doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    return this.model().then((model) => model.doStream(options));
  }

  private model(): Promise<LanguageModelV3> {
    // A load that failed is tried again by the next request.
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }
}
