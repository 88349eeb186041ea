/** The bounded directory creation lives in the mind package (the lower layer); re-exported for the hook path. */
export { ensureDir, ENSURE_DIR_MAX_DEPTH } from '@hive-mind/mind/dirs';
