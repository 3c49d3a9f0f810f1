// Where the API is: the page's <meta name="lf-api-url"> (the service writes its own origin's
// empty value; a build for another origin writes DASHBOARD_API_URL), and the path the app lives
// under, for links and the router.

const meta = document.querySelector<HTMLMetaElement>('meta[name="lf-api-url"]');

/** The API's origin and base path without a trailing slash; '' for the page's own origin. */
export const apiBaseUrl = (meta?.content ?? '').replace(/\/+$/, '');

export const APP_BASE_PATH = '/app';
