import { useState, type InputHTMLAttributes, type Ref } from 'react';
import { LuEye, LuEyeOff } from 'react-icons/lu';
import { LightButton } from './button';

type LightPasswordInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { ref?: Ref<HTMLInputElement> };

/** A password field with a show/hide toggle that names what it will do (shared/components/password-input.tsx, light). */
export function LightPasswordInput({ ref, className, ...props }: LightPasswordInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="lt-input-group">
      <input ref={ref} type={visible ? 'text' : 'password'} className={['lt-input', className].filter(Boolean).join(' ')} {...props} />
      <div className="lt-input-end">
        <LightButton
          variant="ghost"
          size="sm"
          className="lt-icon-button"
          aria-label={visible ? 'Hide password' : 'Show password'}
          aria-pressed={visible}
          onClick={() => setVisible((value) => !value)}
        >
          {visible ? <LuEyeOff /> : <LuEye />}
        </LightButton>
      </div>
    </div>
  );
}
