// One location's details: a back button, title, image, address, distance, opening hours
// (hours.view.ts), contact links (tel:, mailto:, website), a directions link, the finder's
// custom fields under their labels, and its tags and sets. Links that leave the page report a `click` event.
import { h, isolated, safeHttpUrl, telHref, uniqueId } from './dom.ts';
import { type HoursContext, hoursField } from './hours.view.ts';
import type { MessageKey, Translate } from './i18n.ts';
import type { CustomFieldDefinition, FinderLocation, FinderPayload } from './types.ts';

export interface DetailsContext {
  payload: FinderPayload;
  t: Translate;
  language: string;
  hours: HoursContext;
  distance: string | null;
  directionsUrl: string;
  onClose(): void;
  onLinkClick(location: FinderLocation): void;
}

function externalLink(href: string, text: string, t: Translate, className = 'lf-link'): HTMLAnchorElement {
  return h('a', { href, class: className, target: '_blank', rel: 'noopener noreferrer' }, [
    isolated(text),
    h('span', { class: 'lf-sr' }, [` ${t('newTab')}`]),
  ]);
}

function customValue(
  definition: CustomFieldDefinition,
  value: unknown,
  context: DetailsContext,
): Node | null {
  const { t, language } = context;
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) {
    return null;
  }
  const text = Array.isArray(value) ? value.map(String).join(', ') : String(value);
  // Phone numbers, addresses and links read left to right whatever the layout's direction.
  const ltr = { dir: 'ltr', class: 'lf-link' };
  switch (definition.type) {
    case 'boolean':
      return document.createTextNode(t(value === true || value === 'true' || value === 1 ? 'yes' : 'no'));
    case 'number': {
      const number = Number(value);
      return isolated(Number.isFinite(number) ? number.toLocaleString(language) : text);
    }
    case 'date': {
      const date = new Date(text);
      const shown = Number.isNaN(date.getTime())
        ? text
        : new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
      return isolated(shown);
    }
    case 'url': {
      const href = safeHttpUrl(text);
      return href ? externalLink(href, text, t) : isolated(text);
    }
    case 'email':
      return h('a', { ...ltr, href: `mailto:${text}` }, [text]);
    case 'phone':
      return h('a', { ...ltr, href: telHref(text) }, [text]);
    default:
      return isolated(text);
  }
}

function row(label: string, value: Node): HTMLElement {
  return h('div', { class: 'lf-field' }, [h('dt', {}, [label]), h('dd', {}, [value])]);
}

export function renderDetails(location: FinderLocation, context: DetailsContext): HTMLElement {
  const { payload, t, distance } = context;
  const label = (key: MessageKey) => t(key);
  const fields: HTMLElement[] = [];

  const addressLines = [
    location.address,
    [location.zip, location.city].filter(Boolean).join(' '),
    [location.state, location.country].filter(Boolean).join(', '),
  ].filter((line): line is string => !!line && line.trim() !== '');
  if (addressLines.length > 0) {
    fields.push(
      row(
        label('address'),
        h(
          'address',
          {},
          addressLines.flatMap((line, i) => (i ? [h('br'), line] : [line])),
        ),
      ),
    );
  }
  const hours = hoursField(location, Date.now(), context.hours);
  if (hours) fields.push(row(...hours));
  if (location.phone) {
    fields.push(
      row(label('phone'), h('a', { href: telHref(location.phone), class: 'lf-link' }, [location.phone])),
    );
  }
  if (location.email) {
    fields.push(
      row(label('email'), h('a', { href: `mailto:${location.email}`, class: 'lf-link' }, [location.email])),
    );
  }
  const website = safeHttpUrl(location.website);
  if (website) {
    const { host, pathname } = new URL(website);
    const shown = host.replace(/^www\./, '') + (pathname === '/' ? '' : pathname.replace(/\/$/, ''));
    fields.push(row(label('website'), externalLink(website, shown, t)));
  }
  for (const definition of payload.custom_fields) {
    const value = customValue(definition, location.custom_fields[definition.name], context);
    if (value) fields.push(row(definition.label || definition.name, value));
  }

  const tagNames = new Map(payload.tags.map((tag) => [tag.slug, tag.name]));
  const setNames = new Map(payload.sets.map((set) => [set.id, set.name]));
  const chips = [
    ...location.sets.map((id) => setNames.get(id)),
    ...location.tags.map((slug) => tagNames.get(slug)),
  ].filter((name): name is string => !!name);

  const image = safeHttpUrl(location.image_url);
  const hasPosition = typeof location.lat === 'number' && typeof location.lng === 'number';
  const directions = hasPosition
    ? context.directionsUrl.replace('{lat}', String(location.lat)).replace('{lng}', String(location.lng))
    : undefined;

  const headingId = uniqueId('details-title');
  const heading = h('h2', { id: headingId, class: 'lf-details-title', tabindex: '-1' }, [
    isolated(location.title),
  ]);
  // Before the heading, where a phone's back button is: the panel covers the results.
  const back = h('button', { type: 'button', class: 'lf-button lf-back' }, [
    h('span', { 'aria-hidden': 'true' }, ['‹ ']),
    t('backToResults'),
  ]);
  back.addEventListener('click', context.onClose);

  const element = h('article', { class: 'lf-details', 'aria-labelledby': headingId }, [
    h('div', { class: 'lf-details-head' }, [back, heading]),
    distance ? h('p', { class: 'lf-distance' }, [isolated(t('distance', { distance }))]) : null,
    image
      ? h('img', {
          class: 'lf-image',
          src: image,
          alt: t('photo', { name: location.title }),
          loading: 'lazy',
        })
      : null,
    location.description ? h('p', { class: 'lf-description' }, [isolated(location.description)]) : null,
    fields.length > 0 ? h('dl', { class: 'lf-fields' }, fields) : null,
    chips.length > 0
      ? h(
          'ul',
          { class: 'lf-chips' },
          chips.map((name) => h('li', {}, [isolated(name)])),
        )
      : null,
    directions
      ? externalLink(directions, t('directions'), t, 'lf-button lf-button--primary lf-directions')
      : null,
  ]);
  element.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a[href]')) context.onLinkClick(location);
  });
  element.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') context.onClose();
  });
  return element;
}
