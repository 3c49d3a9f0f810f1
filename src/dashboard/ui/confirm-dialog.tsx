// Confirmation before anything destructive: a button that opens a modal dialog (focus kept
// inside, Escape closes it) saying what will happen, with Cancel and the action.
import type { ReactNode } from 'react';
import { Button } from 'react-aria-components/Button';
import { Dialog, DialogTrigger } from 'react-aria-components/Dialog';
import { Heading } from 'react-aria-components/Heading';
import { Modal, ModalOverlay } from 'react-aria-components/Modal';
import { t } from '../i18n/i18n.ts';

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
    <DialogTrigger>
      <Button className="button danger" isDisabled={isDisabled}>
        {trigger}
      </Button>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal">
          <Dialog role="alertdialog" className="dialog">
            {({ close }) => (
              <>
                <Heading slot="title">{title}</Heading>
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
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
