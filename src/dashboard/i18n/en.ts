// The dashboard's English texts. Another language is another object of the same keys
// (i18n.ts), so a translation is data, not code. `{name}` marks a value filled in.
export const en = {
  'app.name': 'Store locator',
  'app.skip': 'Skip to content',
  'app.loading': 'Loading…',
  'app.retry': 'Try again',
  'app.cancel': 'Cancel',
  'app.close': 'Close',
  'app.save': 'Save',
  'app.saving': 'Saving…',

  'error.network': 'The service cannot be reached. Check your connection and try again.',
  'error.unavailable': 'The service is briefly unavailable. Try again in a moment.',
  'error.rate_limited': 'Too many attempts. Try again in {seconds} seconds.',
  'error.not_found': 'This was not found, or you have no access to it.',
  'error.forbidden': 'You are not allowed to do this.',
  'error.unexpected': 'Something went wrong on our side. Try again; if it persists, contact support.',
  'error.form': 'Some fields need your attention.',

  'nav.main': 'Main',
  'nav.locations': 'Locations',
  'nav.finders': 'Finders',
  'nav.account': 'Account',
  'nav.sign_out': 'Sign out',
  'nav.workspace': 'Workspace',

  'signin.title': 'Sign in',
  'signin.email': 'Email',
  'signin.password': 'Password',
  'signin.submit': 'Sign in',
  'signin.to_signup': 'No account yet? Sign up',
  'signin.expired': 'Your session ended. Sign in again to go on.',

  'challenge.title': 'Second step',
  'challenge.intro': 'Enter a code from your authenticator app, the code we emailed you, or a recovery code.',
  'challenge.code': 'Code',
  'challenge.submit': 'Verify',
  'challenge.restart': 'Start again',

  'signup.title': 'Create your account',
  'signup.name': 'Your name',
  'signup.email': 'Email',
  'signup.password': 'Password',
  'signup.password_confirmation': 'Password again',
  'signup.password_hint': 'At least 8 characters.',
  'signup.submit': 'Create account',
  'signup.to_signin': 'Have an account? Sign in',

  'workspaces.none': 'You have no workspace yet.',

  'locations.title': 'Locations',
  'locations.search': 'Search locations',
  'locations.count': '{count} locations',
  'locations.count_one': '1 location',
  'locations.empty': 'No locations yet. Import a CSV file or add one.',
  'locations.no_match': 'No location matches “{q}”.',
  'locations.col.title': 'Name',
  'locations.col.address': 'Address',
  'locations.col.city': 'City',
  'locations.col.country': 'Country',
  'locations.col.tags': 'Tags',
  'locations.col.updated': 'Updated',
  'locations.sort.ascending': 'sorted ascending',
  'locations.sort.descending': 'sorted descending',
  'locations.row_loading': 'Loading row…',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
