// The place search: a text input with suggestions in the ARIA 1.2 combobox pattern (editable
// combobox with list autocomplete). Typing asks for suggestions after a pause; ArrowDown and
// ArrowUp move through them (aria-activedescendant keeps focus in the input), Enter takes the
// active one (or the first), Escape closes the list and, pressed again, clears the search.
import { h, uniqueId } from './dom.ts';
import type { MessageKey, Translate } from './i18n.ts';
import type { Lifetime } from './lifetime.ts';
import { type Place, type PlaceSearch, PlaceSearchError, type Suggestion } from './places.ts';

const DEBOUNCE_MS = 250;
const MIN_QUERY_LENGTH = 2;

export interface SearchBox {
  element: HTMLElement;
  setValue(text: string): void;
  /** A short message under the field (also used for the visitor's own location). */
  say(text: string): void;
}

export interface SearchBoxOptions {
  t: Translate;
  places: PlaceSearch;
  onPlace(place: Place, query: string): void;
  onClear(): void;
  /** The view's: a pending pause or request ends with it, and nothing answers after. */
  lifetime: Lifetime;
}

const FAILURE_MESSAGES: Record<PlaceSearchError['kind'], MessageKey> = {
  rate_limited: 'searchRateLimited',
  unavailable: 'searchUnavailable',
  not_found: 'placeUnavailable',
  forbidden: 'forbidden',
};

export function createSearchBox({ t, places, onPlace, onClear, lifetime }: SearchBoxOptions): SearchBox {
  const inputId = uniqueId('search');
  const listId = uniqueId('suggestions');
  const messageId = uniqueId('search-message');

  const input = h('input', {
    id: inputId,
    type: 'text',
    class: 'lf-input',
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    'aria-controls': listId,
    'aria-describedby': messageId,
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: t('searchPlaceholder'),
  });
  const listbox = h('ul', {
    id: listId,
    role: 'listbox',
    class: 'lf-suggestions',
    'aria-label': t('suggestions'),
  });
  listbox.hidden = true;
  const clear = h('button', { type: 'button', class: 'lf-clear', 'aria-label': t('clearSearch') }, ['×']);
  clear.hidden = true;
  const message = h('p', { id: messageId, class: 'lf-search-message', role: 'status' });
  const element = h('div', { class: 'lf-search' }, [
    h('label', { for: inputId, class: 'lf-label' }, [t('searchLabel')]),
    h('div', { class: 'lf-search-field' }, [input, clear, listbox]),
    message,
  ]);

  let suggestions: Suggestion[] = [];
  let provider = '';
  let active = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: AbortController | undefined;
  lifetime.add(() => {
    clearTimeout(timer);
    pending?.abort();
  });

  const say = (text: string) => {
    message.textContent = text;
  };

  const setActive = (index: number) => {
    active = index;
    listbox.querySelectorAll('[role="option"]').forEach((option, i) => {
      option.setAttribute('aria-selected', String(i === index));
      if (i === index) option.scrollIntoView({ block: 'nearest' });
    });
    const option = listbox.children[index];
    if (option) input.setAttribute('aria-activedescendant', option.id);
    else input.removeAttribute('aria-activedescendant');
  };

  const close = () => {
    listbox.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    setActive(-1);
  };

  const open = () => {
    if (suggestions.length === 0) return;
    listbox.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  };

  const showSuggestions = (items: Suggestion[]) => {
    suggestions = items;
    listbox.replaceChildren(
      ...items.map((item, i) =>
        h('li', { id: `${listId}-${i}`, role: 'option', class: 'lf-option', 'aria-selected': 'false' }, [
          item.description,
        ]),
      ),
    );
    active = -1;
    input.removeAttribute('aria-activedescendant');
    if (items.length > 0) {
      say('');
      open();
    } else {
      close();
      say(t('noSuggestions'));
    }
  };

  const fail = (error: unknown) => {
    // Only the refusal names a value: the page's origin, as the widget's refusal does.
    if (error instanceof PlaceSearchError)
      say(t(FAILURE_MESSAGES[error.kind], { origin: window.location.origin }));
    else if (!(error instanceof DOMException && error.name === 'AbortError')) say(t('searchUnavailable'));
  };

  const lookUp = (query: string) => {
    pending?.abort();
    const controller = new AbortController();
    pending = controller;
    places.suggest(query, controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      provider = result.provider;
      showSuggestions(result.suggestions);
    }, fail);
  };

  const choose = (index: number) => {
    const suggestion = suggestions[index];
    if (!suggestion) return;
    input.value = suggestion.description;
    clear.hidden = false;
    close();
    say(t('searching'));
    places.resolve(suggestion, provider, lifetime.signal).then((place) => {
      if (lifetime.ended) return;
      say('');
      onPlace(place, suggestion.description);
    }, fail);
  };

  const reset = () => {
    pending?.abort();
    clearTimeout(timer);
    input.value = '';
    clear.hidden = true;
    suggestions = [];
    listbox.replaceChildren();
    close();
    say('');
    onClear();
  };

  input.addEventListener('input', () => {
    clearTimeout(timer);
    const query = input.value.trim();
    clear.hidden = input.value === '';
    if (query.length < MIN_QUERY_LENGTH) {
      pending?.abort();
      suggestions = [];
      close();
      return;
    }
    timer = setTimeout(() => lookUp(query), DEBOUNCE_MS);
  });

  input.addEventListener('keydown', (event) => {
    const count = suggestions.length;
    const expanded = !listbox.hidden;
    switch (event.key) {
      case 'ArrowDown':
        if (count === 0) return;
        event.preventDefault();
        if (!expanded) open();
        setActive(expanded ? (active + 1) % count : 0);
        break;
      case 'ArrowUp':
        if (count === 0) return;
        event.preventDefault();
        if (!expanded) open();
        setActive(active <= 0 ? count - 1 : active - 1);
        break;
      case 'Enter':
        if (!expanded || count === 0) return;
        event.preventDefault();
        choose(Math.max(active, 0));
        break;
      case 'Escape':
        if (expanded) close();
        else if (input.value !== '') reset();
        else return;
        event.preventDefault();
        break;
      case 'Tab':
        close();
        break;
    }
  });

  input.addEventListener('blur', close);
  // mousedown would move focus out of the input before the click lands.
  listbox.addEventListener('mousedown', (event) => event.preventDefault());
  listbox.addEventListener('click', (event) => {
    const option = (event.target as Element).closest('[role="option"]');
    if (option) choose([...listbox.children].indexOf(option));
  });
  clear.addEventListener('click', () => {
    reset();
    input.focus();
  });

  return {
    element,
    setValue(text) {
      input.value = text;
      clear.hidden = text === '';
    },
    say,
  };
}
