import { useEffect, useState } from 'preact/hooks';
import QRCode from 'qrcode';
import { api } from '../api.ts';
import type { Enrolment, OperatorFactors } from '../types.ts';
import { Confirm, CopyableValue, ErrorText, Loaded, useAction, useLoad, useToast, When } from '../ui.tsx';

/**
 * The signed-in operator's second factor (API.md §2.2 "Operators"): enrol an authenticator app
 * from a QR code, activate it with a code, keep the recovery codes shown once, remove it.
 */
export function SecurityPage() {
  const factors = useLoad(() => api<OperatorFactors>('GET', '/admin/mfa'), []);
  const [enrolment, setEnrolment] = useState<Enrolment>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const [removing, setRemoving] = useState<string>();
  const act = useAction();
  const toast = useToast();

  const start = () =>
    act.run(async () => {
      setRecoveryCodes(undefined);
      setEnrolment(await api<Enrolment>('POST', '/admin/mfa/totp'));
    });

  return (
    <div class="page">
      <div class="page-head">
        <h1>Two-step sign-in</h1>
      </div>
      <p class="muted">With an authenticator app, signing in to this dashboard asks for a 6-digit code after the password.</p>
      <Loaded load={factors}>
        {(data) => {
          const active = data.factors.filter((f) => f.verified);
          return active.length > 0 ? (
            <div class="card" data-testid="mfa-on">
              <p>
                <strong>On.</strong> An authenticator app was added <When at={active[0].createdAt} />. Recovery codes left: {data.recoveryCodesLeft}.
              </p>
              <button type="button" class="danger" onClick={() => setRemoving(active[0].id)}>
                Remove the authenticator app
              </button>
            </div>
          ) : enrolment ? null : (
            <button type="button" class="primary" onClick={start} disabled={act.busy}>
              Set up an authenticator app
            </button>
          );
        }}
      </Loaded>
      <ErrorText error={act.error} />
      {enrolment && (
        <Enrol
          enrolment={enrolment}
          onDone={(codes) => {
            setEnrolment(undefined);
            setRecoveryCodes(codes);
            factors.reload();
          }}
        />
      )}
      {recoveryCodes && (
        <div class="card" data-testid="recovery-codes">
          <h2>Recovery codes</h2>
          <p class="warning" role="note">
            <strong>You won't see them again.</strong> Each signs in once instead of a code, should you lose your phone. Keep them somewhere safe: the server
            stores only their hashes.
          </p>
          <pre class="mono">{recoveryCodes.join('\n')}</pre>
        </div>
      )}
      {removing && (
        <RemoveFactor
          factorId={removing}
          onClose={() => setRemoving(undefined)}
          onRemoved={() => {
            toast.toast('The authenticator app was removed: sign-in asks for the password only.');
            factors.reload();
          }}
        />
      )}
      {toast.view}
    </div>
  );
}

/** The QR code of the otpauth URL (drawn as SVG by the qrcode library), the secret to type instead, and the first code. */
function Enrol({ enrolment, onDone }: { enrolment: Enrolment; onDone: (recoveryCodes: string[]) => void }) {
  const [svg, setSvg] = useState<string>();
  const [code, setCode] = useState('');
  const act = useAction();
  useEffect(() => {
    QRCode.toString(enrolment.otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then(setSvg, () => setSvg(undefined));
  }, [enrolment.otpauthUrl]);
  const submit = (e: Event) => {
    e.preventDefault();
    void act.run(async () => {
      const r = await api<{ recoveryCodes: string[] }>('POST', '/admin/mfa/totp/verify', { body: { factorId: enrolment.factorId, code: code.trim() } });
      onDone(r.recoveryCodes);
    });
  };
  return (
    <form class="card" onSubmit={submit}>
      <h2>Scan this code with your authenticator app</h2>
      {/* The library's own SVG markup (no script): a CSP-safe way to draw it. */}
      {svg && <div class="qr" role="img" aria-label="QR code of the authenticator app's setup" dangerouslySetInnerHTML={{ __html: svg }} />}
      <p class="muted">Or type this key into the app:</p>
      <CopyableValue label="Setup key" value={enrolment.secret} />
      <label>
        The 6-digit code the app shows now
        <input name="code" autoComplete="one-time-code" inputMode="numeric" required value={code} onInput={(e) => setCode(e.currentTarget.value)} />
      </label>
      <ErrorText error={act.error} />
      <button type="submit" class="primary" disabled={act.busy}>
        Turn on two-step sign-in
      </button>
    </form>
  );
}

function RemoveFactor({ factorId, onClose, onRemoved }: { factorId: string; onClose: () => void; onRemoved: () => void }) {
  const [code, setCode] = useState('');
  return (
    <Confirm
      title="Remove the authenticator app"
      action="Remove"
      danger
      onClose={onClose}
      onConfirm={async () => {
        await api('DELETE', `/admin/mfa/${encodeURIComponent(factorId)}`, { body: { code: code.trim() } });
        onRemoved();
      }}
    >
      <label>
        A current code, or a recovery code
        <input name="remove-code" required value={code} onInput={(e) => setCode(e.currentTarget.value)} />
      </label>
    </Confirm>
  );
}
