import { Button, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { signIn } from '../../shell/session.ts';

const started = new Set<string>();

/** /login/{token}: sign in with the token from the link, then go home. */
export default function TokenLogin() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    // One attempt per token, even if the effect runs twice.
    if (started.has(token)) return;
    started.add(token);
    signIn('token', token).then(
      () => navigate('/', { replace: true }),
      () => {
        started.delete(token);
        setFailed(true);
      },
    );
  }, [token, navigate]);

  if (failed) {
    return (
      <Result
        status="warning"
        title={t('login.tokenFailed')}
        extra={
          <Button type="primary">
            <Link to="/login">{t('login.back')}</Link>
          </Button>
        }
      />
    );
  }
  return (
    <div className="center-pad">
      <Spin />
      <p>{t('login.tokenSigningIn')}</p>
    </div>
  );
}
