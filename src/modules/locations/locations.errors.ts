// Errors of the locations module (CRUD, images, CSV import).
import { AppError, createNotFoundError } from '../../lib/errors.ts';

export const createLocationNotFoundError = () => createNotFoundError('Location not found.');

export const createUnsupportedImageError = () =>
  new AppError(415, 'unsupported_media_type', 'The image must be a JPEG or PNG file.');

export const createImageTooLargeError = () =>
  new AppError(413, 'payload_too_large', 'The image may not be larger than 5 MB.');
