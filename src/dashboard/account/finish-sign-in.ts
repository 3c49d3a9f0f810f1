// After register, login or its second step: the session starts with the token answer and the
// user goes where they were headed (the page that asked them to sign in), or to the start.
import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { startSession } from '../api/session.ts';

export interface TokenAnswer {
  token: string;
  expires_in: number;
}

/** Only a path of this app: a redirect never leaves it. */
export function safeRedirect(redirect: string | undefined): string {
  return redirect?.startsWith('/') && !redirect.startsWith('//') ? redirect : '/locations';
}

export function useFinishSignIn(redirect: string | undefined) {
  const router = useRouter();
  const queryClient = useQueryClient();
  return (answer: TokenAnswer) => {
    queryClient.clear();
    startSession(answer.token, answer.expires_in);
    void router.navigate({ to: safeRedirect(redirect), replace: true });
  };
}
