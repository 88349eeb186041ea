/** The bounded directory creation lives in the mind package (the lower layer); re-exported for the hook path. */
export { ensureDir } from '@hive-mind/mind/dirs';
