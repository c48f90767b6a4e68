/** Views and helpers of sign-ups and preliminary materials, for the participant, admin and expert areas. */
export { AttachmentList } from './AttachmentList';
export { ContestStatusTag } from './ContestStatusTag';
export { StatusHistory, type HistoryAudience, type StatusHistoryProps } from './StatusHistory';
export {
  DICT_QUERY_KEYS,
  dictLang,
  downloadAttachment,
  fetchDictLabels,
  fetchDictModule,
  fileRefOf,
  fileRefsOf,
  labelOf,
  toUploadValue,
  toUploadValues,
  useDictLabels,
  useDictModule,
} from './contest-common';
export { VideoPlayer } from './VideoPlayer';
