import { create } from 'zustand';
import type { User } from '../api/account.ts';

interface SessionState {
  /** The signed-in user once userInfo answered. */
  user: User | null;
  /** Quota reached (code 104) or project expired. */
  limited: boolean;
  /** Set by a sign-in: the home screen then opens the role's home once (spec: role home). */
  landing: boolean;
  setLanding(landing: boolean): void;
  setUser(user: User | null): void;
  setLimited(limited: boolean): void;
}

export const useSession = create<SessionState>()((set) => ({
  user: null,
  limited: false,
  landing: false,
  setLanding: (landing) => set({ landing }),
  setUser: (user) => set({ user }),
  setLimited: (limited) => set({ limited }),
}));
