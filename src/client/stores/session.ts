import { create } from 'zustand';
import type { User } from '../api/account.ts';

interface SessionState {
  /** The signed-in user once userInfo answered. */
  user: User | null;
  /** Quota reached (code 104) or project expired. */
  limited: boolean;
  setUser(user: User | null): void;
  setLimited(limited: boolean): void;
}

export const useSession = create<SessionState>()((set) => ({
  user: null,
  limited: false,
  setUser: (user) => set({ user }),
  setLimited: (limited) => set({ limited }),
}));
