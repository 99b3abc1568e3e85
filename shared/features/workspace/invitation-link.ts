/** The link the invitee opens; it carries the one-time token and nothing else. */
export const invitationLink = (origin: string, token: string) =>
  `${origin}/dashboard/business/invitations/accept?token=${encodeURIComponent(token)}`;
