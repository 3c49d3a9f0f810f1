// What every hours editor says of a time or a date not filled in yet (hours-draft.ts's checks
// take them, as the service's own sentences ask for text a time input never shows).
import { t } from '../i18n/i18n.ts';
import type { BlankMessages } from './hours-draft.ts';

export const blankMessages = (): BlankMessages => ({
  time: t('hours.blank_time'),
  date: t('hours.blank_date'),
});
