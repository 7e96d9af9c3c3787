package io.spillover.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Keeps secrets that must be used again, not only checked, encrypted at rest: hooks' signing secrets and the secret
 * access keys clients sign SigV4 requests with. AES-256-GCM under {@code spillover.webhooks.secret-key} (the name
 * it had when hooks were its only users), each with a random nonce, the key's id (a digest of it) stored beside, so
 * a secret sealed under another key is told apart from a damaged one. A secret must sign or check a signature, so
 * unlike a token it cannot be kept as a hash; a database backup without the key holds no usable secret.
 * <p>
 * Without a configured key, the embedded database's demo makes one and keeps it in {@code spillover.data-dir}
 * (mode 600), as it keeps the demo logins. On an external database there is no such default: replicas would
 * each make their own, and could not open each other's secrets; what needs a secret is then refused until a key
 * is set.
 */
@Component
public class SecretBox {

    static final String KEY_FILE = "webhook-secret.key";
    private static final int NONCE_BYTES = 12;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Logger log = LoggerFactory.getLogger(SecretBox.class);

    private final SecretKeySpec key;
    private final String keyId;

    SecretBox(@Value("${spillover.webhooks.secret-key:}") String configuredKey,
              @Value("${spring.datasource.url:}") String datasourceUrl, @Value("${spillover.data-dir}") Path dataDir) {
        byte[] raw = !configuredKey.isBlank() ? decode(configuredKey.trim())
                : datasourceUrl.isEmpty() ? demoKey(dataDir.toAbsolutePath().resolve(KEY_FILE)) : null;
        if (raw == null) {
            log.warn("No spillover.webhooks.secret-key (SPILLOVER_WEBHOOKS_SECRET_KEY): webhooks and SigV4 access keys"
                    + " cannot be made until one is set (32 random bytes, base64; every replica the same)");
        }
        this.key = raw == null ? null : new SecretKeySpec(raw, "AES");
        this.keyId = raw == null ? null : idOf(raw);
    }

    /** The id of the key in use; empty when there is none. */
    public Optional<String> keyId() {
        return Optional.ofNullable(keyId);
    }

    /** The secret sealed: nonce, then ciphertext with its tag. */
    public byte[] seal(byte[] secret) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, requireKey(), new GCMParameterSpec(128, nonce));
            byte[] sealed = cipher.doFinal(secret);
            return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is in every JVM", e);
        }
    }

    /** The secret a {@link #seal} made under key {@code sealedUnder}. */
    public byte[] open(byte[] sealed, String sealedUnder) {
        if (!sealedUnder.equals(keyId)) {
            throw new IllegalStateException("the secret was sealed under another spillover.webhooks.secret-key"
                    + " (key id " + sealedUnder + ", this instance has " + (keyId == null ? "none" : keyId) + ")");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, sealed, 0, NONCE_BYTES));
            return cipher.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the secret cannot be opened: it was altered", e);
        }
    }

    private SecretKeySpec requireKey() {
        if (key == null) {
            throw new IllegalStateException("no spillover.webhooks.secret-key");
        }
        return key;
    }

    private static byte[] decode(String base64) {
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("spillover.webhooks.secret-key must be base64", e);
        }
        if (raw.length != 32) {
            throw new IllegalArgumentException("spillover.webhooks.secret-key must be 32 bytes (base64 of 32 random"
                    + " bytes, e.g. `openssl rand -base64 32`); it has " + raw.length);
        }
        return raw;
    }

    private static byte[] demoKey(Path file) {
        try {
            if (Files.exists(file)) {
                return decode(Files.readString(file).trim());
            }
            byte[] raw = new byte[32];
            RANDOM.nextBytes(raw);
            Files.createDirectories(file.getParent());
            Files.writeString(file, Base64.getEncoder().encodeToString(raw) + "\n");
            try {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // the file system has no such permissions (Windows): the data directory's own protect it
            }
            log.info("Made a key for stored secrets (hooks' signing secrets, SigV4 keys) in {} (set spillover.webhooks.secret-key instead to"
                    + " choose one)", file);
            return raw;
        } catch (IOException e) {
            throw new UncheckedIOException("could not keep the secret key in " + file, e);
        }
    }

    private static String idOf(byte[] raw) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(raw);
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
