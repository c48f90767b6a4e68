import { Alert, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { GroupView, ReviewRound } from '@contest/shared';
import { AppDialog } from '../../../components/admin-kit';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { useFeedback } from '../../../components/feedback';
import { ExpertPicker } from './ExpertPicker';
import { errorText, isStale } from './errors';
import { createGroup, updateGroup } from './review-api';
import { slugOf } from './round';

/** api.ts groupBodySchema: names up to 30 characters, up to 50 experts. */
const NAME_MAX = 30;
const EXPERTS_MAX = 50;

interface Values {
  name: string;
  expertIds: string[];
}

export interface GroupDialogProps {
  round: ReviewRound;
  open: boolean;
  /** null: a new group. */
  group: GroupView | null;
  onClose(): void;
  /** After the server took it (and after a STALE refusal: the list is out of date). */
  onSaved(): void;
}

/** 新建评审组 / 编辑评审组: a name and the experts (searched in 专家库; those in another group shown, not choosable). */
export function GroupDialog({ round, open, group, onClose, onSaved }: GroupDialogProps) {
  const { t } = useTranslation('review');
  const { message } = useFeedback();
  const [form] = Form.useForm<Values>();
  const { busy, error, setError, submit } = useFormSubmit(
    form,
    async (values) => {
      const body = { name: values.name.trim(), expertIds: values.expertIds ?? [] };
      if (group) await updateGroup(slugOf(round), group.id, { ...body, version: group.version });
      else await createGroup(slugOf(round), body);
      void message.success(t('groups.saved'));
      onSaved();
      onClose();
    },
    (e) => {
      if (!isStale(e)) return errorText(e);
      // Someone changed the group meanwhile: say so and show it as it is now.
      void message.warning(errorText(e) ?? t('common.stale'));
      onSaved();
      onClose();
      return null;
    },
  );

  return (
    <AppDialog
      open={open}
      title={group ? t('groups.editTitle') : t('groups.createTitle')}
      width={640}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={() => {
        if (!busy) {
          setError(null);
          onClose();
        }
      }}
      data-testid="group-dialog"
    >
      <Form<Values>
        form={form}
        layout="vertical"
        clearOnDestroy
        initialValues={{ name: group?.name ?? '', expertIds: group?.experts.map((e) => e.id) ?? [] }}
      >
        <Form.Item
          name="name"
          label={t('groups.name')}
          rules={[
            { required: true, whitespace: true, message: t('groups.nameRequired') },
            { max: NAME_MAX, message: t('groups.nameTooLong', { max: NAME_MAX }) },
          ]}
        >
          <Input maxLength={NAME_MAX} placeholder={t('groups.namePlaceholder')} />
        </Form.Item>
        <Form.Item
          name="expertIds"
          label={t('groups.experts')}
          extra={t('groups.expertsHint')}
          rules={[{ type: 'array', max: EXPERTS_MAX, message: t('groups.expertsTooMany', { max: EXPERTS_MAX }) }]}
        >
          <ExpertPicker round={round} initial={group?.experts ?? []} currentGroup={group?.name ?? null} max={EXPERTS_MAX} />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} data-testid="review-dialog-error" />}
    </AppDialog>
  );
}
