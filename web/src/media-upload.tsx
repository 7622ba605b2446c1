// Upload by picker or drag and drop, each file with its progress bar (POST /v1/media, API.md section 10).
import { useState } from 'preact/hooks';
import { describeError, uploadMedia } from './api.ts';

export interface Uploaded {
  id: string;
  url: string;
  type: string;
  name: string;
  altText: string | null;
}

interface InFlight {
  key: number;
  name: string;
  progress: number;
  error: string | null;
}

let counter = 0;

export function MediaDrop({ onUploaded, label = 'Add media' }: { onUploaded(m: Uploaded): void; label?: string }) {
  const [uploads, setUploads] = useState<InFlight[]>([]);
  const [over, setOver] = useState(false);
  const update = (key: number, patch: Partial<InFlight>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...patch } : u)));

  const send = (files: FileList | File[]) => {
    for (const file of Array.from(files)) {
      const key = ++counter;
      setUploads((list) => [...list, { key, name: file.name, progress: 0, error: null }]);
      uploadMedia(file, '', (p) => update(key, { progress: p }))
        .then((media) => {
          setUploads((list) => list.filter((u) => u.key !== key));
          onUploaded({ id: media.id, url: media.url, type: media.type, name: file.name, altText: media.altText ?? null });
        })
        .catch((err) => update(key, { error: describeError(err) }));
    }
  };

  return (
    <div class="uploader">
      <div
        class={`dropzone ${over ? 'over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          if (e.dataTransfer?.files.length) send(e.dataTransfer.files);
        }}
      >
        <label>
          {label}
          <input
            type="file"
            multiple
            accept="image/*,video/*,application/pdf"
            onChange={(e) => {
              const input = e.currentTarget;
              if (input.files?.length) send(input.files);
              input.value = '';
            }}
          />
        </label>
        <span class="muted"> or drop files here</span>
      </div>
      {uploads.length > 0 && (
        <ul class="uploads">
          {uploads.map((u) => (
            <li key={u.key}>
              <span>{u.name}</span>{' '}
              {u.error ? (
                <span class="error" role="alert">
                  {u.error}
                </span>
              ) : (
                <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`} />
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
