// The built-in drafting model, `model_name: "builtin-parser"` (docs/api.md, Models and
// "The built-in parser"): used without an OpenAI key. It reads the lists pasted into `source_notes`
// and `example_locations` (one location per line, per block or per table row) and drafts one
// location per entry. It is deterministic and invents nothing: what is not in the text stays null.
import { MAX_DRAFTED_LOCATIONS } from '../ai-imports.answers.ts';
import type { Draft, DraftingModel } from '../ai-imports.drafting.ts';
import { duplicateKey } from '../ai-imports.normalize.ts';
import type { AiImportSourceAnswers } from '../ai-imports.table.ts';
import { countryInScope } from './ai-imports.builtin-address.ts';
import { type DraftedLocation, parseEntry } from './ai-imports.builtin-entry.ts';
import { type Layout, splitEntries } from './ai-imports.builtin-layout.ts';

export const BUILTIN_MODEL_NAME = 'builtin-parser';
/** Changed whenever the parser's rules change, so a batch says which rules drafted it. */
export const BUILTIN_PROMPT_VERSION = 'builtin-2026-11-27';

/** Common tags as the user typed them: separated by commas, semicolons or new lines. */
export const splitTags = (text: string | undefined) =>
  [...new Set((text ?? '').split(/[,;\n]/).map((tag) => tag.trim().replace(/^#/, '')))].filter(Boolean);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A common tag goes onto an item whose own text mentions it (as a whole word, any case): the
 * parser cannot tell which locations a tag fits otherwise, and putting every tag on every
 * item would make the tags say nothing. The reviewer adds the rest.
 */
export function mentionedTags(text: string, tags: readonly string[]): string[] {
  return tags.filter((tag) =>
    new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(tag)}(?![\\p{L}\\p{N}])`, 'iu').test(text),
  );
}

/**
 * An entry without a name of its own (a list of bare addresses) is named after the brand, with
 * its city when known ("Blue Bottle Coffee Springfield"), so it can still be imported.
 */
function withBrandName(location: DraftedLocation, brand: string | undefined): DraftedLocation {
  if (location.name !== null || !brand) return location;
  return { ...location, name: location.city ? `${brand} ${location.city}` : brand };
}

/** Whitespace-separated words: the parser has no tokens, so usage counts words in and out. */
export const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;

const outputWords = (locations: DraftedLocation[]) =>
  locations.reduce((sum, location) => {
    const { source_text: _source, ...fields } = location;
    const values = Object.values(fields).flatMap((value) =>
      Array.isArray(value)
        ? value
        : typeof value === 'object' && value !== null
          ? Object.values(value)
          : [value],
    );
    return (
      sum +
      values.reduce<number>((words, value) => words + (value === null ? 0 : countWords(String(value))), 0)
    );
  }, 0);

export interface BuiltinDraftSummary {
  parser: typeof BUILTIN_MODEL_NAME;
  /** Layout found in each text read. */
  layouts: { source_notes: Layout; example_locations?: Layout };
  entries: number;
  drafted: number;
  /** Entries skipped because they hold nothing to locate (headings, remarks). */
  skipped: number;
  /** Example locations left out because source_notes already has them. */
  duplicate_examples: number;
  /** Drafted beyond MAX_DRAFTED_LOCATIONS and cut. */
  truncated: number;
}

/** Drafts from the answers alone; exported for the tests and for a preview without a job. */
export function draftFromAnswers(answers: AiImportSourceAnswers): Draft {
  const context = { defaultCountry: countryInScope(answers.geographic_scope ?? '') };
  const tags = splitTags(answers.common_tags);

  const read = (text: string) => {
    const { layout, entries } = splitEntries(text);
    const locations = entries.flatMap((entry) => {
      const location = parseEntry(entry, context);
      if (!location) return [];
      const drafted = withBrandName(location, answers.brand_name);
      return [
        { ...drafted, tags: [...new Set([...drafted.tags, ...mentionedTags(drafted.source_text, tags)])] },
      ];
    });
    return { layout, entries: entries.length, locations };
  };

  const notes = read(answers.source_notes);
  const examples = answers.example_locations ? read(answers.example_locations) : null;
  const known = new Set(notes.locations.map(duplicateKey).filter((key) => key !== null));
  const newExamples = (examples?.locations ?? []).filter((location) => {
    const key = duplicateKey(location);
    return key === null || !known.has(key);
  });
  const all = [...notes.locations, ...newExamples];
  const locations = all.slice(0, MAX_DRAFTED_LOCATIONS);

  const entries = notes.entries + (examples?.entries ?? 0);
  const drafted = notes.locations.length + (examples?.locations.length ?? 0);
  const inputWords = countWords(answers.source_notes) + countWords(answers.example_locations ?? '');
  const producedWords = outputWords(locations);
  const raw: BuiltinDraftSummary = {
    parser: BUILTIN_MODEL_NAME,
    layouts: examples
      ? { source_notes: notes.layout, example_locations: examples.layout }
      : { source_notes: notes.layout },
    entries,
    drafted: locations.length,
    skipped: entries - drafted,
    duplicate_examples: (examples?.locations.length ?? 0) - newExamples.length,
    truncated: all.length - locations.length,
  };
  return {
    locations,
    usage: {
      prompt_token_count: inputWords,
      candidates_token_count: producedWords,
      total_token_count: inputWords + producedWords,
    },
    raw,
  };
}

/**
 * The target count is not used: the parser drafts what the text holds, neither padding nor
 * cutting to the user's estimate (only the MAX_DRAFTED_LOCATIONS cap applies).
 */
export function createBuiltinModel(): DraftingModel {
  return {
    name: BUILTIN_MODEL_NAME,
    promptVersion: BUILTIN_PROMPT_VERSION,
    async draft(answers, options) {
      options.signal?.throwIfAborted();
      return draftFromAnswers(answers);
    },
  };
}
