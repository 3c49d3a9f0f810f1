// Errors of the locations module (CRUD, images, CSV import).
import {
  createNotFoundError,
  createPayloadTooLargeError,
  createUnsupportedMediaTypeError,
} from '../../lib/errors.ts';

export const createLocationNotFoundError = () => createNotFoundError('Location not found.');

export const createUnsupportedImageError = () =>
  createUnsupportedMediaTypeError('The image must be a JPEG or PNG file.');

export const createImageTooLargeError = () =>
  createPayloadTooLargeError('The image may not be larger than 5 MB.');
