import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3GenerateResult,
  type LanguageModelV3StreamResult,
} from "@ai-sdk/provider";
import type { KeyHelper } from "./key-helper.js";

/**
 * A provider model whose key comes from `apiKeyHelper`: built with the helper's current key,
 * and on a 401 re-keyed (the helper runs again) and the request retried once, so a rotated
 * key is picked up without a restart.
 */
export class RekeyedModel implements LanguageModelV3 {
  readonly specificationVersion = "v3";
  readonly supportedUrls: Record<string, RegExp[]> = {};
  private built: { key: string; model: LanguageModelV3 } | undefined;

  constructor(
    readonly provider: string,
    readonly modelId: string,
    private readonly helper: KeyHelper,
    private readonly build: (key: string) => LanguageModelV3,
  ) {}

  doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    return this.call(options.abortSignal, (model) => model.doGenerate(options));
  }

  doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    return this.call(options.abortSignal, (model) => model.doStream(options));
  }

  /** A request whose turn ends (`signal`) stops waiting for the helper, which then ends. */
  private async call<T>(
    signal: AbortSignal | undefined,
    request: (model: LanguageModelV3) => PromiseLike<T>,
  ): Promise<T> {
    const key = this.helper.current ?? (await this.helper.refresh(signal));
    try {
      return await request(this.modelFor(key));
    } catch (error) {
      if (!APICallError.isInstance(error) || error.statusCode !== 401) throw error;
    }
    // Another request may have re-keyed already; run the helper only for a stale key.
    const current = this.helper.current;
    const fresh =
      current !== undefined && current !== key ? current : await this.helper.refresh(signal);
    return request(this.modelFor(fresh));
  }

  private modelFor(key: string): LanguageModelV3 {
    if (this.built?.key !== key) this.built = { key, model: this.build(key) };
    return this.built.model;
  }
}
