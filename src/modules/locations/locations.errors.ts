// Errors of the locations module (CRUD, images, CSV import).
import {
  createFieldError,
  createNotFoundError,
  createPayloadTooLargeError,
  createUnsupportedMediaTypeError,
} from '../../lib/errors.ts';

export const createLocationNotFoundError = () => createNotFoundError('Location not found.');

export const createUnsupportedImageError = () =>
  createUnsupportedMediaTypeError('The image must be a JPEG or PNG file.');

export const createImageTooLargeError = () =>
  createPayloadTooLargeError('The image may not be larger than 5 MB.');

/** `external_id` is unique within a workspace; the unique index decides, even between racing writes. */
export const createExternalIdTakenError = () =>
  createFieldError('external_id', 'The external id has already been taken.');
