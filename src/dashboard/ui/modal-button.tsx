// A button that opens a modal dialog (focus kept inside, Escape and a click outside close it):
// the frame of every confirmation. The content gets `close` to end the dialog when it is done.
import type { ReactNode } from 'react';
import { Button } from 'react-aria-components/Button';
import { Dialog, DialogTrigger } from 'react-aria-components/Dialog';
import { Heading } from 'react-aria-components/Heading';
import { Modal, ModalOverlay } from 'react-aria-components/Modal';

interface ModalButtonProps {
  trigger: string;
  /** What the trigger does, named in full where its text alone repeats on every row ("Edit: Ada"). */
  triggerLabel?: string;
  title: string;
  children: (close: () => void) => ReactNode;
  isDisabled?: boolean;
  /** The trigger's look: a destructive action is red. */
  danger?: boolean;
}

export function ModalButton({
  trigger,
  triggerLabel,
  title,
  children,
  isDisabled,
  danger,
}: ModalButtonProps) {
  return (
    <DialogTrigger>
      <Button
        className={danger ? 'button danger' : 'button'}
        isDisabled={isDisabled}
        aria-label={triggerLabel}
      >
        {trigger}
      </Button>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal">
          <Dialog role="alertdialog" className="dialog">
            {({ close }) => (
              <>
                <Heading slot="title">{title}</Heading>
                {children(close)}
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
