// The widget's texts in English, German and French, and the one `t()` that reads them:
// `{name}` placeholders and plural forms chosen by Intl.PluralRules. A missing German or
// French text falls back to English, so a new key never shows up blank.
import { hoursDe, hoursEn, hoursFr } from './hours.i18n.ts';
import { LANGUAGES, type Language } from './settings.ts';

type Message = string | { one: string; other: string };

const en = {
  ...hoursEn,
  region: 'Store locator: {name}',
  regionUnnamed: 'Store locator',
  searchLabel: 'Find locations near',
  searchPlaceholder: 'City, address or postcode',
  suggestions: 'Suggestions',
  noSuggestions: 'No places found.',
  searching: 'Searching…',
  searchRateLimited: 'Too many searches. Please wait a moment and try again.',
  searchUnavailable: 'Address search is unavailable right now. Use your location or browse the list.',
  placeUnavailable: 'That place could not be found. Please choose another one.',
  clearSearch: 'Clear search',
  useMyLocation: 'Use my location',
  locating: 'Finding your location…',
  locationUnavailable: 'Your location is not available. Search for an address instead.',
  myLocation: 'My location',
  filters: 'Filters',
  filtersActive: { one: 'Filters (1 active)', other: 'Filters ({count} active)' },
  tags: 'Features',
  tagsAny: 'Locations with any of the selected features',
  tagsAll: 'Locations with all of the selected features',
  sets: 'Categories',
  refinements: 'More filters',
  clearFilters: 'Clear filters',
  showResults: { one: 'Show 1 location', other: 'Show {count} locations' },
  locations: 'Locations',
  results: { one: '1 location', other: '{count} locations' },
  resultsNear: {
    one: '1 location near {place}, nearest first',
    other: '{count} locations near {place}, nearest first',
  },
  noResults: 'No locations match. Try removing a filter.',
  loading: 'Loading locations…',
  loadFailed: 'The store locator could not be loaded. Please try again later.',
  forbidden:
    'This store locator is not enabled for this website ({origin}). The site owner can allow it in the finder settings.',
  notFound: 'This store locator does not exist or is no longer available.',
  missingToken: 'This store locator is missing its finder token.',
  backToResults: 'Back to results',
  distance: '{distance} away',
  address: 'Address',
  phone: 'Phone',
  email: 'Email',
  website: 'Website',
  directions: 'Directions',
  newTab: '(opens in a new tab)',
  yes: 'Yes',
  no: 'No',
  map: 'Map of locations',
  showAs: 'Show results as',
  listView: 'List',
  mapView: 'Map',
  mapUnavailable: 'The map could not be loaded. The list shows every location.',
  cluster: { one: '1 location, zoom in', other: '{count} locations, zoom in' },
  youAreHere: 'Search position',
  photo: 'Photo of {name}',
} satisfies Record<string, Message>;

export type MessageKey = keyof typeof en;
type Catalog = Partial<Record<MessageKey, Message>>;

const de: Catalog = {
  ...hoursDe,
  region: 'Filialsuche: {name}',
  regionUnnamed: 'Filialsuche',
  searchLabel: 'Standorte finden in der Nähe von',
  searchPlaceholder: 'Stadt, Adresse oder Postleitzahl',
  suggestions: 'Vorschläge',
  noSuggestions: 'Keine Orte gefunden.',
  searching: 'Suche läuft…',
  searchRateLimited: 'Zu viele Suchanfragen. Bitte warten Sie einen Moment und versuchen Sie es erneut.',
  searchUnavailable:
    'Die Adresssuche ist gerade nicht verfügbar. Verwenden Sie Ihren Standort oder durchsuchen Sie die Liste.',
  placeUnavailable: 'Dieser Ort wurde nicht gefunden. Bitte wählen Sie einen anderen.',
  clearSearch: 'Suche löschen',
  useMyLocation: 'Meinen Standort verwenden',
  locating: 'Ihr Standort wird ermittelt…',
  locationUnavailable: 'Ihr Standort ist nicht verfügbar. Suchen Sie stattdessen nach einer Adresse.',
  myLocation: 'Mein Standort',
  filters: 'Filter',
  filtersActive: { one: 'Filter (1 aktiv)', other: 'Filter ({count} aktiv)' },
  tags: 'Merkmale',
  tagsAny: 'Standorte mit mindestens einem der gewählten Merkmale',
  tagsAll: 'Standorte mit allen gewählten Merkmalen',
  sets: 'Kategorien',
  refinements: 'Weitere Filter',
  clearFilters: 'Filter zurücksetzen',
  showResults: { one: '1 Standort anzeigen', other: '{count} Standorte anzeigen' },
  locations: 'Standorte',
  results: { one: '1 Standort', other: '{count} Standorte' },
  resultsNear: {
    one: '1 Standort in der Nähe von {place}, nächster zuerst',
    other: '{count} Standorte in der Nähe von {place}, nächste zuerst',
  },
  noResults: 'Keine passenden Standorte. Entfernen Sie einen Filter.',
  loading: 'Standorte werden geladen…',
  loadFailed: 'Die Filialsuche konnte nicht geladen werden. Bitte versuchen Sie es später erneut.',
  forbidden:
    'Diese Filialsuche ist für diese Website ({origin}) nicht freigegeben. Der Betreiber kann sie in den Einstellungen erlauben.',
  notFound: 'Diese Filialsuche existiert nicht oder ist nicht mehr verfügbar.',
  missingToken: 'Dieser Filialsuche fehlt ihr Finder-Token.',
  backToResults: 'Zurück zu den Ergebnissen',
  distance: '{distance} entfernt',
  address: 'Adresse',
  phone: 'Telefon',
  email: 'E-Mail',
  website: 'Website',
  directions: 'Route planen',
  newTab: '(öffnet in neuem Tab)',
  yes: 'Ja',
  no: 'Nein',
  map: 'Karte der Standorte',
  showAs: 'Ergebnisse anzeigen als',
  listView: 'Liste',
  mapView: 'Karte',
  mapUnavailable: 'Die Karte konnte nicht geladen werden. Die Liste zeigt alle Standorte.',
  cluster: { one: '1 Standort, hineinzoomen', other: '{count} Standorte, hineinzoomen' },
  youAreHere: 'Suchposition',
  photo: 'Foto von {name}',
};

const fr: Catalog = {
  ...hoursFr,
  region: 'Localisateur de magasins : {name}',
  regionUnnamed: 'Localisateur de magasins',
  searchLabel: 'Trouver des adresses près de',
  searchPlaceholder: 'Ville, adresse ou code postal',
  suggestions: 'Suggestions',
  noSuggestions: 'Aucun lieu trouvé.',
  searching: 'Recherche…',
  searchRateLimited: 'Trop de recherches. Veuillez patienter un instant puis réessayer.',
  searchUnavailable:
    'La recherche d’adresse est indisponible pour le moment. Utilisez votre position ou parcourez la liste.',
  placeUnavailable: 'Ce lieu est introuvable. Veuillez en choisir un autre.',
  clearSearch: 'Effacer la recherche',
  useMyLocation: 'Utiliser ma position',
  locating: 'Recherche de votre position…',
  locationUnavailable: 'Votre position n’est pas disponible. Recherchez plutôt une adresse.',
  myLocation: 'Ma position',
  filters: 'Filtres',
  filtersActive: { one: 'Filtres (1 actif)', other: 'Filtres ({count} actifs)' },
  tags: 'Caractéristiques',
  tagsAny: 'Adresses ayant au moins une des caractéristiques choisies',
  tagsAll: 'Adresses ayant toutes les caractéristiques choisies',
  sets: 'Catégories',
  refinements: 'Autres filtres',
  clearFilters: 'Effacer les filtres',
  showResults: { one: 'Afficher 1 adresse', other: 'Afficher {count} adresses' },
  locations: 'Adresses',
  results: { one: '1 adresse', other: '{count} adresses' },
  resultsNear: {
    one: '1 adresse près de {place}, la plus proche d’abord',
    other: '{count} adresses près de {place}, les plus proches d’abord',
  },
  noResults: 'Aucune adresse ne correspond. Essayez de retirer un filtre.',
  loading: 'Chargement des adresses…',
  loadFailed: 'Le localisateur n’a pas pu être chargé. Veuillez réessayer plus tard.',
  forbidden:
    'Ce localisateur n’est pas autorisé sur ce site ({origin}). Le propriétaire peut l’autoriser dans les réglages.',
  notFound: 'Ce localisateur n’existe pas ou n’est plus disponible.',
  missingToken: 'Il manque le jeton de ce localisateur.',
  backToResults: 'Retour aux résultats',
  distance: 'à {distance}',
  address: 'Adresse',
  phone: 'Téléphone',
  email: 'E-mail',
  website: 'Site web',
  directions: 'Itinéraire',
  newTab: '(s’ouvre dans un nouvel onglet)',
  yes: 'Oui',
  no: 'Non',
  map: 'Carte des adresses',
  showAs: 'Afficher les résultats en',
  listView: 'Liste',
  mapView: 'Carte',
  mapUnavailable: 'La carte n’a pas pu être chargée. La liste montre toutes les adresses.',
  cluster: { one: '1 adresse, zoomer', other: '{count} adresses, zoomer' },
  youAreHere: 'Position recherchée',
  photo: 'Photo de {name}',
};

const CATALOGS: Record<Language, Catalog> = { en, de, fr };

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export function createTranslator(language: Language): Translate {
  const catalog = CATALOGS[language];
  const plurals = new Intl.PluralRules(language);
  return (key, values = {}) => {
    const message = catalog[key] ?? en[key];
    const count = values.count;
    const template =
      typeof message === 'string'
        ? message
        : typeof count === 'number' && plurals.select(count) === 'one'
          ? message.one
          : message.other;
    return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => {
      const value = values[name];
      if (value === undefined) return placeholder;
      return typeof value === 'number' ? value.toLocaleString(language) : value;
    });
  };
}

/** `auto` (or a language we do not ship) follows the nearest `lang` attribute, else English. */
export function resolveLanguage(setting: Language | 'auto', hostLang: string | null | undefined): Language {
  if (setting !== 'auto') return setting;
  const prefix = (hostLang ?? '').trim().toLowerCase().split('-')[0];
  return LANGUAGES.find((language) => language === prefix) ?? 'en';
}
