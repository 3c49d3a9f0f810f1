// Recovery codes, shown the one time the service answers them: to download as a text file, to
// copy, and a button to say they are kept. Focus moves to their heading, since the button that
// brought them is gone.
import { useEffect, useRef } from 'react';
import { Button } from 'react-aria-components/Button';
import { t } from '../../i18n/i18n.ts';
import { CopyButton } from '../../ui/copy-button.tsx';
import { downloadText } from '../../ui/download.ts';

const RECOVERY_CODES_FILE = 'store-locator-recovery-codes.txt';

export function RecoveryCodes({
  codes,
  email,
  onDone,
}: {
  codes: string[];
  email: string;
  onDone: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const file = `${t('recovery.file_intro', { email })}\n\n${codes.join('\n')}\n`;
  return (
    <section aria-labelledby="codes-heading" className="panel">
      <h2 id="codes-heading" ref={heading} tabIndex={-1}>
        {t('recovery.codes_title')}
      </h2>
      <p>{t('recovery.codes_intro')}</p>
      <ul className="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="actions">
        <Button className="button" onPress={() => downloadText(RECOVERY_CODES_FILE, file)}>
          {t('recovery.download')}
        </Button>
        <CopyButton text={codes.join('\n')} label={t('recovery.copy')} />
        <Button className="button primary" onPress={onDone}>
          {t('recovery.done')}
        </Button>
      </div>
    </section>
  );
}
