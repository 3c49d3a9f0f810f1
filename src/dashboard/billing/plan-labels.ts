// How a plan (subscription tier) and a subscription status read, wherever an account's billing
// shows: the billing screen and the admin's list of users.
import type { MessageKey } from '../i18n/en.ts';
import { t } from '../i18n/i18n.ts';

export const tierLabel = (tier: string) => t(`billing.tier.${tier}` as MessageKey);
export const statusLabel = (status: string) => t(`billing.status.${status}` as MessageKey);
