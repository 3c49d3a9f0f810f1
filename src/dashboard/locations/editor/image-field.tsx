// A location's image: the current one as a preview, a new one chosen (JPEG or PNG; a file over
// the service's 5 MB limit is refused here, before anything is sent), uploaded with its
// progress, or the image removed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { FileTrigger } from 'react-aria-components/FileTrigger';
import { api, unwrap } from '../../api/client.ts';
import { uploadForm } from '../../api/upload.ts';
import { formatNumber, t } from '../../i18n/i18n.ts';
import { ErrorNotice } from '../../ui/error-notice.tsx';
import type { Location } from '../location-pages.ts';

/** The service answers 413 above this (docs/api.md, Location routes). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES = ['image/jpeg', 'image/png'];

export function ImageField({ location }: { location: Location }) {
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['location', location.id] });
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('image', file, file.name);
      return uploadForm(
        '/api/locations/{id}/image',
        form,
        (progress) =>
          setPercent(progress.total ? Math.round((progress.loaded / progress.total) * 100) : null),
        { params: { id: location.id } },
      );
    },
    onSettled: () => {
      setPercent(null);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: async () =>
      unwrap(await api.DELETE('/api/locations/{id}/image', { params: { path: { id: location.id } } })),
    onSuccess: refresh,
  });

  const choose = (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    upload.reset();
    if (!IMAGE_TYPES.includes(file.type)) return setRefusal(t('location.image_type'));
    if (file.size > MAX_IMAGE_BYTES) {
      return setRefusal(
        t('location.image_too_large', {
          size: formatNumber(Math.round((file.size / 1024 / 1024) * 10) / 10),
          limit: formatNumber(MAX_IMAGE_BYTES / 1024 / 1024),
        }),
      );
    }
    setRefusal(null);
    upload.mutate(file);
  };

  return (
    <section className="field image-field" aria-labelledby="image-heading">
      <h2 id="image-heading" className="field-heading">
        {t('location.image')}
      </h2>
      {location.image_url ? (
        <img
          src={location.image_url}
          alt={t('location.image_alt', { title: location.title })}
          className="image-preview"
        />
      ) : (
        <p className="muted">{t('location.image_none')}</p>
      )}
      <p className="muted">
        {t('location.image_hint', { limit: formatNumber(MAX_IMAGE_BYTES / 1024 / 1024) })}
      </p>
      <div className="actions">
        <FileTrigger acceptedFileTypes={IMAGE_TYPES} onSelect={choose}>
          <Button className="button" isDisabled={upload.isPending}>
            {location.image_url ? t('location.image_replace') : t('location.image_choose')}
          </Button>
        </FileTrigger>
        {location.image_url && (
          <Button className="button" isDisabled={remove.isPending} onPress={() => remove.mutate()}>
            {t('location.image_remove')}
          </Button>
        )}
        <span role="status">{percent !== null ? t('import.uploading', { percent }) : ''}</span>
      </div>
      {refusal && (
        <p role="alert" className="notice error">
          {refusal}
        </p>
      )}
      {(upload.error || remove.error) && <ErrorNotice error={upload.error ?? remove.error} />}
    </section>
  );
}
