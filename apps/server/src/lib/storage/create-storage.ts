import type { AppConfig } from '../../config/config.js';
import { createDiskStorage } from './disk-storage.js';
import { createS3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';

/** The driver the configuration names: DATA_DIR/files, or an S3-compatible bucket. */
export function createStorage(config: AppConfig['files']['storage']): Storage {
  return config.driver === 's3' ? createS3Storage(config) : createDiskStorage(config.dir);
}
