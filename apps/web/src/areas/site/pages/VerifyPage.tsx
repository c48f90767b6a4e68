/**
 * 证书验证 (docs/certificates.md, "Verification"): /verify asks for a serial, /verify/{serial} (the
 * address in every certificate's QR code) shows what the organisers issued under it: the status
 * first, in a banner (valid green, superseded with a link to its successor, revoked), then the
 * holder, kind, award, project, contest, round, result version and issue date. Never a phone,
 * e-mail or ID number: the answer carries none. Open to everyone, no sign-in.
 */
import { useState, type ReactNode } from 'react';
import { Alert, Button, Descriptions, Form, Input, Result, Skeleton } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { certificateVerifyPath, normaliseCertificateSerial, type CertificateVerification } from '@contest/shared';
import { ApiError } from '../../../api';
import { beijingTimeLabel } from '../../../lib/beijing-time';
import { useContestName } from '../../../lib/contest-name';
import { contestNames } from '../../../i18n/contest-name';
import { fetchVerification, verifyQueryKey } from '../verify-api';
import '../site-pages.css';
import './verify-page.css';

/** /verify: the serial form alone. */
export function VerifyFormPage() {
  const { t } = useTranslation('certificates');
  return (
    <section className="site-page verify-page" data-testid="verify-form-page">
      <h1 className="site-page__title">{t('verify.title')}</h1>
      <div className="site-panel">
        <p className="verify-page__intro">{t('verify.intro')}</p>
        <SerialForm />
      </div>
    </section>
  );
}

/** /verify/{serial}: the document issued under the serial, or why there is none. */
export function VerifyPage() {
  const { t } = useTranslation('certificates');
  const { serial: raw = '' } = useParams();
  const serial = normaliseCertificateSerial(raw);
  const answer = useQuery({
    queryKey: verifyQueryKey(serial ?? ''),
    queryFn: () => fetchVerification(serial!),
    enabled: serial !== null,
    retry: false,
  });

  let content: ReactNode;
  if (serial === null) {
    content = <Result status="warning" title={<h2 className="verify-page__result-title">{t('verify.invalid')}</h2>} subTitle={t('msg.serialInvalid')} data-testid="verify-invalid" />;
  } else if (answer.isPending) {
    content = <Skeleton active paragraph={{ rows: 6 }} data-testid="verify-loading" />;
  } else if (answer.isError) {
    const status = answer.error instanceof ApiError ? answer.error.status : 0;
    content = status === 400 ? (
      <Result status="warning" title={<h2 className="verify-page__result-title">{t('verify.invalid')}</h2>} subTitle={t('msg.serialInvalid')} data-testid="verify-invalid" />
    ) : status === 404 ? (
      <Result status="404" title={<h2 className="verify-page__result-title">{t('verify.notFound')}</h2>} subTitle={t('msg.serialUnknown')} data-testid="verify-not-found" />
    ) : (
      <Result
        status="warning"
        title={<h2 className="verify-page__result-title">{t('verify.loadFailed')}</h2>}
        extra={<Button onClick={() => void answer.refetch()}>{t('verify.retry')}</Button>}
        data-testid="verify-failed"
      />
    );
  } else {
    content = <Verification doc={answer.data} />;
  }

  return (
    <section className="site-page verify-page" data-testid="verify-page">
      <h1 className="site-page__title">{t('verify.title')}</h1>
      <div className="site-panel">{content}</div>
      <div className="site-panel verify-page__again">
        <h2 className="verify-page__heading">{t('verify.another')}</h2>
        <SerialForm />
      </div>
    </section>
  );
}

function StatusBanner({ doc }: { doc: CertificateVerification }) {
  const { t } = useTranslation('certificates');
  if (doc.status === 'VALID') {
    return <Alert className="verify-banner" type="success" showIcon title={t('verify.valid')} description={t('verify.validText')} data-testid="verify-banner" data-status="VALID" />;
  }
  if (doc.status === 'SUPERSEDED') {
    return (
      <Alert
        className="verify-banner"
        type="warning"
        showIcon
        title={t('verify.superseded')}
        description={
          <>
            <div>{t('verify.supersededText')}</div>
            {doc.successorSerial && (
              <Link to={certificateVerifyPath(doc.successorSerial)} className="verify-banner__link" data-testid="verify-successor">
                {t('verify.successor', { serial: doc.successorSerial })}
              </Link>
            )}
          </>
        }
        data-testid="verify-banner"
        data-status="SUPERSEDED"
      />
    );
  }
  return <Alert className="verify-banner" type="error" showIcon title={t('verify.revoked')} description={t('verify.revokedText')} data-testid="verify-banner" data-status="REVOKED" />;
}

function Verification({ doc }: { doc: CertificateVerification }) {
  const { t } = useTranslation('certificates');
  // The answer names the contest in Chinese; this contest's own name is shown in the page's language.
  const localName = useContestName();
  const contest = doc.contestName === contestNames().zh ? localName : doc.contestName;
  const items = [
    { key: 'serial', label: t('verify.fields.serial'), children: <span className="verify-page__serial">{doc.serial}</span> },
    { key: 'kind', label: t('verify.fields.kind'), children: t(`kind.${doc.kind}`) },
    { key: 'holder', label: t(doc.holderType === 'EXPERT' ? 'verify.fields.expert' : 'verify.fields.team'), children: doc.holderName },
    ...(doc.projectName ? [{ key: 'project', label: t('verify.fields.project'), children: doc.projectName }] : []),
    ...(doc.award ? [{ key: 'award', label: t('verify.fields.award'), children: doc.award }] : []),
    { key: 'contest', label: t('verify.fields.contest'), children: contest },
    { key: 'round', label: t('verify.fields.round'), children: t(`round.${doc.round}`) },
    { key: 'resultVersion', label: t('verify.fields.resultVersion'), children: t('common.versionN', { n: doc.resultVersion }) },
    { key: 'issuedAt', label: t('verify.fields.issuedAt'), children: beijingTimeLabel(doc.issuedAt, 'date') },
  ];
  return (
    <div data-testid="verify-result">
      <StatusBanner doc={doc} />
      <Descriptions className="verify-page__facts" bordered size="middle" column={1} items={items} data-testid="verify-facts" />
    </div>
  );
}

/** The serial input: a typed or pasted serial (any case, spaces, I/L/O for 1/0) opens its page. */
function SerialForm() {
  const { t } = useTranslation('certificates');
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [value, setValue] = useState('');
  const submit = () => {
    if (!value.trim()) {
      setError(t('verify.serialRequired'));
      return;
    }
    const serial = normaliseCertificateSerial(value);
    if (!serial) {
      setError(t('msg.serialInvalid'));
      return;
    }
    setError(null);
    setValue('');
    void navigate(certificateVerifyPath(serial));
  };
  return (
    <Form layout="vertical" onFinish={submit} className="verify-form" data-testid="verify-form">
      <Form.Item label={t('verify.serial')} htmlFor="verify-serial" validateStatus={error ? 'error' : undefined} help={error ?? undefined}>
        <div className="verify-form__row">
          <Input
            id="verify-serial"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            placeholder={t('verify.serialPlaceholder')}
            autoComplete="off"
            spellCheck={false}
            maxLength={40}
            data-testid="verify-serial"
          />
          <Button type="primary" htmlType="submit" icon={<SafetyCertificateOutlined />} data-testid="verify-submit">
            {t('verify.submit')}
          </Button>
        </div>
      </Form.Item>
    </Form>
  );
}
