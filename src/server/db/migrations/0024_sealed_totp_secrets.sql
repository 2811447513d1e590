-- Staff TOTP seeds are stored sealed (AES-256-GCM, src/server/security/secret-box.ts): `v1.<iv>.<tag>.<ciphertext>`
-- is longer than the 32-character base32 seed the column was sized for.
ALTER TABLE "staff_totp" ALTER COLUMN "secret" TYPE varchar(255);
