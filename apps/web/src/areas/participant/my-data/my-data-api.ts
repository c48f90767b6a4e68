/** The participant's 个人数据 (docs/retention.md, "Requests"): their export and deletion request. */
import type { DataDeleteRequestInput, DataRequestItem, MyDataOverview } from '@contest/shared';
import type { BlobResult } from '../../../api';
import { api, dataOf } from '../../../lib/api';

export const MY_DATA_QUERY_KEY = ['participant', 'my-data'] as const;

export const fetchMyData = () => dataOf(api.get<MyDataOverview>('/my-data'));
export const requestExport = () => api.post<DataRequestItem>('/my-data/export');
export const requestDeletion = (body: DataDeleteRequestInput) => api.post<DataRequestItem>('/my-data/deletion', body);
export const downloadExport = (id: string) => api.get(`/my-data/export/${id}/download`, { responseType: 'blob' }) as Promise<BlobResult>;
