// Which drafting model a process uses (docs/api.md, Models): the `openai` client when
// OPENAI_API_KEY is set, the built-in parser otherwise. The contract both implement is re-exported
// from here, so callers import models from one place. The openai client (about 13 MB of a process's
// memory) is loaded only when it is configured.
import type { Config } from '../../../config/config.ts';
import type { DraftingModel } from '../ai-imports.drafting.ts';
import { createBuiltinModel } from '../builtin/ai-imports.builtin-model.ts';

export type { Draft, DraftingModel, DraftOptions } from '../ai-imports.drafting.ts';

export async function createDraftingModel(config: Config['openai']): Promise<DraftingModel> {
  if (!config.apiKey) return createBuiltinModel();
  const { createOpenAiModel } = await import('./ai-imports.openai-model.ts');
  return createOpenAiModel({ apiKey: config.apiKey, baseUrl: config.baseUrl, model: config.model });
}
