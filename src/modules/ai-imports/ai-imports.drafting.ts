// The contract every drafting model implements (docs/api.md, Models): guided answers in, draft
// locations and token usage out. Kept apart from the factory (models/ai-imports.model.ts) so
// the models can import it without an import cycle; the factory re-exports it.
import type { LocationCountRange } from './ai-imports.answers.ts';
import type { AiImportSourceAnswers, AiImportUsageMetadata } from './ai-imports.table.ts';

export interface DraftOptions {
  /** Cancels the call (a cancelled process, a stopping worker). */
  signal?: AbortSignal;
  /** The user's expected count: guidance for the model, never padded or cut to it. */
  target: LocationCountRange;
}

export interface Draft {
  /**
   * One object per drafted location in the keys of normalized_payload (custom_fields as an
   * object), not yet trusted: ai-imports.normalize.ts turns each into an item. At most
   * MAX_DRAFTED_LOCATIONS.
   */
  locations: unknown[];
  usage: AiImportUsageMetadata;
  /** What the model answered as a whole (the Chat Completions response; the parser's summary), for logs. */
  raw: unknown;
}

export interface DraftingModel {
  /** The batch's `model_name`. */
  readonly name: string;
  /** The batch's `prompt_version`: a dated string, changed whenever the prompt or parser changes. */
  readonly promptVersion: string;
  draft(answers: AiImportSourceAnswers, options: DraftOptions): Promise<Draft>;
}
