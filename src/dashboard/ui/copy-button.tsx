// A button that puts a text on the clipboard and says so beside itself (a status, announced by
// screen readers), or that it could not (a browser that refuses the clipboard).
import { useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { t } from '../i18n/i18n.ts';

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <span className="copy-button">
      <Button
        className="button"
        onPress={() =>
          navigator.clipboard.writeText(text).then(
            () => setState('copied'),
            () => setState('failed'),
          )
        }
      >
        {label}
      </Button>
      <span role="status">
        {state === 'copied' ? t('app.copied') : state === 'failed' ? t('app.copy_failed') : ''}
      </span>
    </span>
  );
}
