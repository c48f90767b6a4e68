import { useState } from 'react';
import { Button, Col, Form, Input, InputNumber, Row, Space, Switch } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ADMIN_MSG, DICT_ITEM_CODE_PATTERN, DICT_MSG, DICT_NAME_EN_MAX, DICT_TYPE_CODE_PATTERN, type DictItem, type DictType } from '@contest/shared';
import { serverText } from '../../../components/admin-kit/refusal-text';
import { AppDialog } from '../../../components/admin-kit/AppDialog';
import { CardTitle } from '../../../components/admin-kit/CardTitle';
import { DataTable } from '../../../components/admin-kit/DataTable';
import { Permission } from '../../../lib/permission';
import {
  ADMIN_QUERY_KEYS,
  createDictItem,
  createDictType,
  deleteDictType,
  fetchDictItems,
  fetchDictTypes,
  updateDictItem,
  updateDictType,
} from '../admin-api';
import { StatusTag } from '../components/StatusTag';
import { showFieldError } from '../components/use-field-errors';
import { useFeedback } from '../../../components/feedback';
import { validateAndFocus } from '../../../lib/form-errors';

interface TypeValues {
  code?: string;
  name: string;
  nameEn?: string;
  sort?: number;
}

interface ItemValues {
  code?: string;
  name: string;
  nameEn?: string;
  sort?: number;
  enabled: boolean;
}

const sortRule = { type: 'integer' as const, min: 0, max: 9999, message: ADMIN_MSG.sortInvalid };
const nameEnRules = [{ max: DICT_NAME_EN_MAX, message: DICT_MSG.dictNameEnTooLong }];
/** Sent always: an emptied field removes the English name (English pages then show the Chinese one). */
const nameEnOf = (values: { nameEn?: string | undefined }) => values.nameEn?.trim() ?? '';

/** 数据字典 (/admin/system/dataField): dictionary types on the left, the chosen type's items on the right. */
export function DataFieldPage() {
  const { t, i18n } = useTranslation('admin');
  // Titles and prompts name a type in the page's language: its English name where it has one.
  const english = (i18n.resolvedLanguage ?? i18n.language).startsWith('en');
  const typeName = (type: { name: string; nameEn: string | null }) => (english && type.nameEn) || type.name;
  const { message, modal } = useFeedback();
  const queryClient = useQueryClient();
  const types = useQuery({ queryKey: ADMIN_QUERY_KEYS.dictTypes, queryFn: fetchDictTypes });
  const [chosen, setChosen] = useState<string | null>(null);
  const typeCode = chosen ?? types.data?.[0]?.code ?? null;
  const items = useQuery({
    queryKey: ADMIN_QUERY_KEYS.dictItems(typeCode ?? ''),
    queryFn: () => fetchDictItems(typeCode!),
    enabled: typeCode !== null,
  });
  const [typeForm] = Form.useForm<TypeValues>();
  const [itemForm] = Form.useForm<ItemValues>();
  const [editingType, setEditingType] = useState<DictType | 'new' | null>(null);
  const [editingItem, setEditingItem] = useState<DictItem | 'new' | null>(null);
  const [saving, setSaving] = useState(false);

  const refreshTypes = () => queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.dictTypes });
  const refreshItems = () => typeCode && queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.dictItems(typeCode) });

  const openType = (type: DictType | 'new') => {
    setEditingType(type);
    typeForm.setFieldsValue(type === 'new' ? { code: '', name: '', nameEn: '', sort: 0 } : { name: type.name, nameEn: type.nameEn ?? '', sort: type.sort });
  };
  const openItem = (item: DictItem | 'new') => {
    setEditingItem(item);
    itemForm.setFieldsValue(
      item === 'new'
        ? { code: '', name: '', nameEn: '', sort: 0, enabled: true }
        : { name: item.name, nameEn: item.nameEn ?? '', sort: item.sort, enabled: item.enabled },
    );
  };

  const saveType = async () => {
    const values = await validateAndFocus(typeForm);
    setSaving(true);
    try {
      if (editingType === 'new') {
        const created = await createDictType({ ...values, nameEn: nameEnOf(values) });
        setChosen(created.code);
      } else if (editingType) {
        await updateDictType(editingType.code, { name: values.name, nameEn: nameEnOf(values), sort: values.sort });
      }
      void message.success(serverText(editingType === 'new' ? ADMIN_MSG.created : ADMIN_MSG.saved));
      setEditingType(null);
      void refreshTypes();
    } catch (err) {
      showFieldError(typeForm, err, ['code', 'name', 'nameEn', 'sort']);
    } finally {
      setSaving(false);
    }
  };

  const saveItem = async () => {
    const values = await validateAndFocus(itemForm);
    if (!typeCode) return;
    setSaving(true);
    try {
      if (editingItem === 'new') await createDictItem({ ...values, nameEn: nameEnOf(values), typeCode });
      else if (editingItem) {
        await updateDictItem(editingItem.id, { name: values.name, nameEn: nameEnOf(values), sort: values.sort ?? 0, enabled: values.enabled });
      }
      void message.success(serverText(editingItem === 'new' ? ADMIN_MSG.created : ADMIN_MSG.saved));
      setEditingItem(null);
      void refreshItems();
      void refreshTypes();
    } catch (err) {
      showFieldError(itemForm, err, ['code', 'name', 'nameEn', 'sort']);
    } finally {
      setSaving(false);
    }
  };

  const removeType = (type: DictType) =>
    modal.confirm({
      title: t('pages.common.confirmTitle'),
      content: t('pages.dict.confirmDeleteType', { name: typeName(type) }),
      okText: t('kit.ok'),
      cancelText: t('kit.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await deleteDictType(type.code);
        void message.success(serverText(ADMIN_MSG.deleted));
        if (chosen === type.code) setChosen(null);
        void refreshTypes();
      },
    });

  const typeColumns: ColumnsType<DictType> = [
    { title: t('pages.dict.typeName'), dataIndex: 'name' },
    { title: t('pages.dict.nameEn'), dataIndex: 'nameEn' },
    { title: t('pages.dict.typeCode'), dataIndex: 'code' },
    { title: t('pages.dict.itemCount'), dataIndex: 'itemCount', width: 80 },
    {
      title: t('kit.actions'),
      key: 'actions',
      render: (_, row) => (
        <Permission codes={['dict:edit']}>
          <Space size={0}>
            <Button type="link" size="small" onClick={(e) => { e.stopPropagation(); openType(row); }}>
              {t('pages.common.edit')}
            </Button>
            {!row.builtin && row.itemCount === 0 && (
              <Button type="link" size="small" danger onClick={(e) => { e.stopPropagation(); removeType(row); }}>
                {t('pages.common.delete')}
              </Button>
            )}
          </Space>
        </Permission>
      ),
    },
  ];

  const itemColumns: ColumnsType<DictItem> = [
    { title: t('pages.dict.itemName'), dataIndex: 'name' },
    { title: t('pages.dict.nameEn'), dataIndex: 'nameEn' },
    { title: t('pages.dict.itemCode'), dataIndex: 'code' },
    { title: t('pages.dict.sort'), dataIndex: 'sort', width: 80 },
    { title: t('pages.fields.status'), dataIndex: 'enabled', render: (_, row) => <StatusTag enabled={row.enabled} /> },
    {
      title: t('kit.actions'),
      key: 'actions',
      render: (_, row) => (
        <Permission codes={['dict:edit']}>
          <Button type="link" size="small" onClick={() => openItem(row)}>
            {t('pages.common.edit')}
          </Button>
        </Permission>
      ),
    },
  ];

  const current = types.data?.find((ty) => ty.code === typeCode);

  return (
    <section className="admin-page" data-testid="data-field-page">
      <h1 className="admin-page__title">{t('titles.dataField')}</h1>
      <Row gutter={[24, 24]}>
        <Col xs={24} xl={10}>
          <CardTitle
            title={t('pages.dict.types')}
            extra={
              <Permission codes={['dict:edit']}>
                <Button size="small" icon={<PlusOutlined />} onClick={() => openType('new')}>
                  {t('pages.dict.createType')}
                </Button>
              </Permission>
            }
          />
          <DataTable<DictType>
            rowKey="code"
            columns={typeColumns}
            dataSource={types.data ?? []}
            loading={types.isFetching}
            rowClassName={(row) => (row.code === typeCode ? 'ant-table-row-selected' : '')}
            onRow={(row) => ({ onClick: () => setChosen(row.code), style: { cursor: 'pointer' } })}
          />
        </Col>
        <Col xs={24} xl={14}>
          <CardTitle
            title={current ? t('pages.dict.itemsOf', { name: typeName(current) }) : t('pages.dict.items')}
            extra={
              typeCode && (
                <Permission codes={['dict:edit']}>
                  <Button size="small" icon={<PlusOutlined />} onClick={() => openItem('new')}>
                    {t('pages.dict.createItem')}
                  </Button>
                </Permission>
              )
            }
          />
          <DataTable<DictItem> rowKey="id" columns={itemColumns} dataSource={items.data ?? []} loading={items.isFetching} />
        </Col>
      </Row>

      <AppDialog
        open={editingType !== null}
        title={editingType === 'new' ? t('pages.dict.createType') : t('pages.dict.editType')}
        confirmLoading={saving}
        onOk={() => void saveType().catch(() => {})}
        onCancel={() => setEditingType(null)}
        forceRender
      >
        <Form form={typeForm} layout="vertical" name="dict-type">
          {editingType === 'new' && (
            <Form.Item
              name="code"
              label={t('pages.dict.typeCode')}
              required
              rules={[
                { required: true, whitespace: true, message: ADMIN_MSG.dictTypeCodeRequired },
                { pattern: DICT_TYPE_CODE_PATTERN, message: ADMIN_MSG.dictTypeCodeFormat },
              ]}
            >
              <Input />
            </Form.Item>
          )}
          <Form.Item
            name="name"
            label={t('pages.dict.typeName')}
            required
            rules={[{ required: true, whitespace: true, message: ADMIN_MSG.dictTypeNameRequired }, { max: 50, message: ADMIN_MSG.dictNameTooLong }]}
          >
            <Input />
          </Form.Item>
          <Form.Item name="nameEn" label={t('pages.dict.nameEn')} extra={t('pages.dict.nameEnHint')} rules={nameEnRules}>
            <Input lang="en" />
          </Form.Item>
          <Form.Item name="sort" label={t('pages.dict.sort')} rules={[sortRule]}>
            <InputNumber min={0} max={9999} precision={0} />
          </Form.Item>
        </Form>
      </AppDialog>

      <AppDialog
        open={editingItem !== null}
        title={editingItem === 'new' ? t('pages.dict.createItem') : t('pages.dict.editItem')}
        confirmLoading={saving}
        onOk={() => void saveItem().catch(() => {})}
        onCancel={() => setEditingItem(null)}
        forceRender
      >
        <Form form={itemForm} layout="vertical" name="dict-item">
          {editingItem === 'new' && (
            <Form.Item
              name="code"
              label={t('pages.dict.itemCode')}
              required
              rules={[
                { required: true, whitespace: true, message: ADMIN_MSG.dictItemCodeRequired },
                { pattern: DICT_ITEM_CODE_PATTERN, message: ADMIN_MSG.dictItemCodeFormat },
              ]}
            >
              <Input />
            </Form.Item>
          )}
          <Form.Item
            name="name"
            label={t('pages.dict.itemName')}
            required
            rules={[{ required: true, whitespace: true, message: ADMIN_MSG.dictItemNameRequired }, { max: 50, message: ADMIN_MSG.dictNameTooLong }]}
          >
            <Input />
          </Form.Item>
          <Form.Item name="nameEn" label={t('pages.dict.nameEn')} extra={t('pages.dict.nameEnHint')} rules={nameEnRules}>
            <Input lang="en" />
          </Form.Item>
          <Form.Item name="sort" label={t('pages.dict.sort')} rules={[sortRule]}>
            <InputNumber min={0} max={9999} precision={0} />
          </Form.Item>
          <Form.Item name="enabled" label={t('pages.fields.status')} valuePropName="checked">
            <Switch checkedChildren={t('pages.common.enabled')} unCheckedChildren={t('pages.common.disabled')} />
          </Form.Item>
        </Form>
      </AppDialog>
    </section>
  );
}
