// Which drafting model a process uses (decisions §6): the `openai` client when OPENAI_API_KEY is
// set, the built-in parser otherwise. The contract both implement is re-exported from here, so
// callers import models from one place.
import type { Config } from '../../config.ts';
import { createBuiltinModel } from './ai-imports.builtin-model.ts';
import type { DraftingModel } from './ai-imports.drafting.ts';
import { createOpenAiModel } from './ai-imports.openai-model.ts';

export type { Draft, DraftingModel, DraftOptions } from './ai-imports.drafting.ts';

export function createDraftingModel(config: Config['openai']): DraftingModel {
  if (!config.apiKey) return createBuiltinModel();
  return createOpenAiModel({ apiKey: config.apiKey, baseUrl: config.baseUrl, model: config.model });
}
