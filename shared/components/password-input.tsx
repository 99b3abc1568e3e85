import { IconButton, Input, InputGroup, type InputProps } from '@chakra-ui/react';
import { useState, type Ref } from 'react';
import { LuEye, LuEyeOff } from 'react-icons/lu';

type PasswordInputProps = Omit<InputProps, 'type'> & { ref?: Ref<HTMLInputElement> };

/** A password field with a show/hide toggle; the toggle names what it will do for screen readers. */
export function PasswordInput({ ref, ...props }: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <InputGroup
      endElement={
        <IconButton
          type="button"
          variant="ghost"
          size="sm"
          me="-2"
          aria-label={visible ? 'Hide password' : 'Show password'}
          aria-pressed={visible}
          onClick={() => setVisible((value) => !value)}
        >
          {visible ? <LuEyeOff /> : <LuEye />}
        </IconButton>
      }
    >
      <Input ref={ref} type={visible ? 'text' : 'password'} {...props} />
    </InputGroup>
  );
}
