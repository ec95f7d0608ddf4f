// Every feature of the matrix, in the order of its rows.
import { commitMessage, edit, ocrPage } from './editorFeatures';
import { BASE_FEATURES, type Feature } from './features';
import { searchIndex } from './searchIndexFeature';

export const FEATURES: readonly Feature[] = [...BASE_FEATURES, edit, commitMessage, ocrPage, searchIndex];
