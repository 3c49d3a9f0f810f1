// The signed-in session: the bearer token and who it belongs to, kept in localStorage so a
// reload or a second tab stays signed in (docs/api.md, "Dashboard", has the threat model).
// Components subscribe to changes, including sign-outs in another tab (the storage event).

const STORAGE_KEY = 'lf-dashboard-session';

export interface Session {
  token: string;
  /** When the token stops working, epoch milliseconds. */
  expiresAt: number;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let current: Session | null = read();

function read(): Session | null {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Session | null;
    return stored && typeof stored.token === 'string' && stored.expiresAt > Date.now() ? stored : null;
  } catch {
    return null;
  }
}

function changed(): void {
  for (const listener of listeners) listener();
}

window.addEventListener('storage', (event) => {
  if (event.key !== STORAGE_KEY) return;
  current = read();
  changed();
});

export function getSession(): Session | null {
  if (current && current.expiresAt <= Date.now()) endSession();
  return current;
}

/** From a token answer: `expires_in` in seconds. */
export function startSession(token: string, expiresInSeconds: number): void {
  current = { token, expiresAt: Date.now() + expiresInSeconds * 1000 };
  localStorage.setItem(STORAGE_KEY, JSON.stringify(current));
  changed();
}

export function endSession(): void {
  if (current === null && localStorage.getItem(STORAGE_KEY) === null) return;
  current = null;
  localStorage.removeItem(STORAGE_KEY);
  changed();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
