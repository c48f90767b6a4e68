/**
 * Calls of the admin console's system pages (docs/api-admin.md). Types and schemas come from
 * @contest/shared, written with the server; this file only names paths and query keys.
 */
import type {
  AdminDashboard,
  AdminProfile,
  ContestSettings,
  ContestSettingsInput,
  DictItem,
  DictType,
  GeneratedPassword,
  LoginRecordView,
  OperationRecordView,
  Page,
  PermissionTreeNode,
  PiiKind,
  PiiReveal,
  Realm,
  RegisteredUser,
  RegisteredUserDetail,
  RoleDetail,
  RoleSummary,
  SystemAccount,
  SystemAccountCreated,
} from '@contest/shared';
import { api, dataOf } from '../../lib/api';
import { beijingTime } from '../../lib/beijing-time';

export const ADMIN_QUERY_KEYS = {
  accounts: ['admin', 'accounts'] as const,
  roles: ['admin', 'roles'] as const,
  role: (id: string) => ['admin', 'roles', id] as const,
  roleTree: ['admin', 'role-tree'] as const,
  dictTypes: ['admin', 'dict-types'] as const,
  dictItems: (typeCode: string) => ['admin', 'dict-items', typeCode] as const,
  users: ['admin', 'users'] as const,
  user: (id: string) => ['admin', 'users', id] as const,
  profile: ['admin', 'profile'] as const,
  loginRecords: (realm: Realm) => ['admin', 'login-records', realm] as const,
  operationRecords: (realm: Realm) => ['admin', 'operation-records', realm] as const,
  dashboard: ['admin', 'dashboard'] as const,
  pii: (kind: PiiKind, id: string) => ['admin', 'pii', kind, id] as const,
};

/** Answers carry ISO times; the console shows them in Beijing time whatever the device's zone (docs/rules/screens.md, "Dates, sizes, toasts"). */
export function formatDateTime(value: string | null | undefined): string | null {
  return beijingTime(value) || null;
}

// System accounts
export const fetchAccounts = (params: object) => dataOf(api.get<Page<SystemAccount>>('/admin/system/account', { params }));
export const createAccount = (body: object) => dataOf(api.post<SystemAccountCreated>('/admin/system/account', body));
export const updateAccount = (id: string, body: object) => dataOf(api.put<SystemAccount>(`/admin/system/account/${id}`, body));
export const setAccountRoles = (id: string, roleIds: string[]) =>
  dataOf(api.put<SystemAccount>(`/admin/system/account/${id}/roles`, { roleIds }));
export const setAccountEnabled = (id: string, enabled: boolean) =>
  dataOf(api.put<SystemAccount>(`/admin/system/account/${id}/status`, { enabled }));
export const resetAccountPassword = (id: string) =>
  dataOf(api.post<GeneratedPassword>(`/admin/system/account/${id}/reset-password`));

// Roles
export const fetchRoles = () => dataOf(api.get<RoleSummary[]>('/admin/role/list'));
export const fetchRole = (id: string) => dataOf(api.get<RoleDetail>(`/admin/role/list/${id}`));
export const fetchRoleTree = () => dataOf(api.get<PermissionTreeNode[]>('/admin/role/tree'));
export const createRole = (body: object) => dataOf(api.post<RoleDetail>('/admin/role', body));
export const updateRole = (id: string, body: object) => dataOf(api.put<RoleDetail>(`/admin/role/${id}`, body));
export const deleteRole = (id: string) => dataOf(api.delete<null>(`/admin/role/${id}`));

// Data dictionary
export const fetchDictTypes = () => dataOf(api.get<DictType[]>('/admin/dic/type'));
export const createDictType = (body: object) => dataOf(api.post<DictType>('/admin/dic/type', body));
export const updateDictType = (code: string, body: object) => dataOf(api.put<DictType>(`/admin/dic/type/${code}`, body));
export const deleteDictType = (code: string) => dataOf(api.delete<null>(`/admin/dic/type/${code}`));
export const fetchDictItems = (typeCode: string) => dataOf(api.get<DictItem[]>('/admin/dic/item', { params: { typeCode } }));
export const createDictItem = (body: object) => dataOf(api.post<DictItem>('/admin/dic/item', body));
export const updateDictItem = (id: string, body: object) => dataOf(api.put<DictItem>(`/admin/dic/item/${id}`, body));

// Registered users
export const fetchUsers = (params: object) => dataOf(api.get<Page<RegisteredUser>>('/admin/user/list', { params }));
export const fetchUser = (id: string) => dataOf(api.get<RegisteredUserDetail>(`/admin/user/detail/${id}`));
export const setUserEnabled = (id: string, enabled: boolean) =>
  dataOf(api.put<RegisteredUser>(`/admin/user/${id}/status`, { enabled }));
export const resetUserPassword = (id: string) => dataOf(api.post<GeneratedPassword>(`/admin/user/${id}/reset-password`));


// My account
export const fetchProfile = () => dataOf(api.get<AdminProfile>('/admin/account/profile'));
export const updateProfile = (body: object) => dataOf(api.put<AdminProfile>('/admin/account/profile', body));
export const changePassword = (body: { oldPassword: string; newPassword: string }) =>
  api.post<null>('/login/change/password', body, { silent: true });

// Behaviour auditing
export const fetchLoginRecords = (params: object) =>
  dataOf(api.get<Page<LoginRecordView>>('/admin/audit/login-records', { params }));
export const fetchOperationRecords = (params: object) =>
  dataOf(api.get<Page<OperationRecordView>>('/admin/audit/operation-records', { params }));

// Personal information in full (pii:view): every call is an operation record on the server.
export const fetchPii = (kind: PiiKind, id: string) => dataOf(api.get<PiiReveal>(`/admin/pii/${kind}/${id}`));

// Console home
export const fetchDashboard = () => dataOf(api.get<AdminDashboard>('/admin/dashboard'));

// Contest settings (大赛设置)
export const SETTINGS_QUERY_KEY = ['admin', 'settings'] as const;
export const fetchSettings = () => dataOf(api.get<ContestSettings>('/admin/settings'));
export const saveSettings = (body: ContestSettingsInput) => api.put<ContestSettings>('/admin/settings', body);
