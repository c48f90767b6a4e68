import type { ReactNode } from 'react';
import { Button, Form, Space, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import './kit.css';

export interface SearchFormProps<V> {
  form: FormInstance<V>;
  /** The filter fields (Form.Item elements). */
  children: ReactNode;
  onSearch(values: V): void;
  onReset(): void;
}

/** Filters above a table with 查询 and 重置; reset empties the fields and searches again. */
export function SearchForm<V>({ form, children, onSearch, onReset }: SearchFormProps<V>) {
  const { t } = useTranslation('admin');
  return (
    <Form<V>
      form={form}
      layout="inline"
      className="kit-search-form"
      data-testid="kit-search-form"
      onFinish={onSearch}
    >
      {children}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {t('kit.search')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              onReset();
            }}
          >
            {t('kit.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
