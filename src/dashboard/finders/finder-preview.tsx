// The live preview beside the design form: the real widget.js in a frame (the service's page
// GET /app/preview), drawing the finder's current payload (GET .../details/{key}/preview: the
// current data, not the last publish, whatever websites the finder lists) with the form's
// settings as they are now, saved or not. The frame holds no token: the payload is sent to it by
// postMessage, to the service's origin only, once it says it is ready and again a moment after
// each change; its messages count only from that frame at that origin.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import { apiBaseUrl } from '../config.ts';
import { t } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import type { Finder } from './use-finders.ts';

/** Typing pauses this long before the preview draws again. */
const REDRAW_DELAY_MS = 250;

const previewOrigin = new URL(apiBaseUrl || window.location.origin, window.location.href).origin;
// Another origin's page is admitted as the frame's parent by name (its frame-ancestors).
const previewUrl =
  previewOrigin === window.location.origin
    ? `${previewOrigin}/app/preview`
    : `${previewOrigin}/app/preview?parent=${encodeURIComponent(window.location.origin)}`;

export function FinderPreview({
  finder,
  settings,
}: {
  finder: Finder;
  settings: { key: string; value: unknown }[];
}) {
  const payload = useQuery({
    queryKey: ['finders', 'preview', finder.token],
    queryFn: async () =>
      unwrap(
        await api.GET('/api/ext/finders/details/{key}/preview', { params: { path: { key: finder.token } } }),
      ),
  });
  const frame = useRef<HTMLIFrameElement>(null);
  // Counts the frame's "ready" messages: a reloaded frame asks again.
  const [ready, setReady] = useState(0);

  useEffect(() => {
    const listen = (event: MessageEvent) => {
      if (event.origin !== previewOrigin || event.source !== frame.current?.contentWindow) return;
      if ((event.data as { type?: unknown } | null)?.type === 'lf-preview:ready')
        setReady((count) => count + 1);
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, []);

  const settingsText = JSON.stringify(settings);
  useEffect(() => {
    if (ready === 0 || !payload.data) return;
    const data = payload.data;
    const timer = setTimeout(() => {
      frame.current?.contentWindow?.postMessage(
        { type: 'lf-preview:payload', payload: { ...data, settings: JSON.parse(settingsText) } },
        previewOrigin,
      );
    }, REDRAW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [ready, payload.data, settingsText]);

  return (
    <section className="preview" aria-labelledby="finder-preview-title">
      <h2 id="finder-preview-title">{t('mapui.preview')}</h2>
      <p className="muted">{t('mapui.preview_hint')}</p>
      {payload.error ? (
        <ErrorNotice error={payload.error} />
      ) : (
        <>
          {!payload.data && (
            <p role="status" className="muted">
              {t('mapui.preview_loading')}
            </p>
          )}
          <iframe ref={frame} className="preview-frame" title={t('mapui.preview_frame')} src={previewUrl} />
        </>
      )}
    </section>
  );
}
