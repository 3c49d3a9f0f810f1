// Confirmation before anything destructive: a button that opens a modal dialog saying what will
// happen, with Cancel (focused first, so Enter does no harm) and the action.
import type { ReactNode } from 'react';
import { Button } from 'react-aria-components/Button';
import { t } from '../i18n/i18n.ts';
import { ModalButton } from './modal-button.tsx';

interface ConfirmProps {
  trigger: string;
  title: string;
  children: ReactNode;
  action: string;
  onConfirm: () => void;
  isDisabled?: boolean;
}

export function ConfirmButton({ trigger, title, children, action, onConfirm, isDisabled }: ConfirmProps) {
  return (
    <ModalButton trigger={trigger} title={title} isDisabled={isDisabled} danger>
      {(close) => (
        <>
          {children}
          <div className="dialog-actions">
            <Button className="button" onPress={close} autoFocus>
              {t('app.cancel')}
            </Button>
            <Button
              className="button danger"
              onPress={() => {
                close();
                onConfirm();
              }}
            >
              {action}
            </Button>
          </div>
        </>
      )}
    </ModalButton>
  );
}
