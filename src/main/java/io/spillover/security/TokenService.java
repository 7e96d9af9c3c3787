package io.spillover.security;

import io.spillover.shared.ConflictException;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import io.spillover.shared.Violation;
import io.spillover.system.Access;
import io.spillover.system.Change;
import io.spillover.system.SecretBox;
import io.spillover.system.Validation;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Issues, lists, revokes and checks API tokens. A token reads {@code spl_<id>_<secret>}: the id finds the
 * stored salt and hash, the secret is checked against them in constant time. Tokens are random enough
 * (240 bits) that a fast salted hash is the right tool here, unlike for passwords.
 * <p>
 * A team's token may also carry an access key for SigV4-signed calls: an id ({@code SPLK} and 16 characters, shaped
 * as AWS's) and a 40-character secret access key, sealed in the database because checking a signature takes the
 * secret itself. Revoking or expiring the token ends its access key with it.
 */
@Service
public class TokenService {

    static final String PREFIX = "spl_";
    static final String BOOTSTRAP_ID = "bootstrap";
    private static final int ID_LENGTH = 12;
    static final String ACCESS_KEY_PREFIX = "SPLK";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Logger log = LoggerFactory.getLogger(TokenService.class);

    private final ApiTokens tokens;
    private final Validation validation;
    private final SecretBox secrets;
    private final Clock clock;

    TokenService(ApiTokens tokens, Validation validation, SecretBox secrets, Clock clock) {
        this.tokens = tokens;
        this.validation = validation;
        this.secrets = secrets;
        this.clock = clock;
    }

    /**
     * An access key a request was signed with, as the endpoint checks signatures: its secret, and the caller it
     * stands for (its token's team and role).
     */
    public record SigningKey(String accessKeyId, String secretAccessKey, String team, Caller caller) {
    }

    /** Issues a token of the team; the answer is the only time the secret shows. */
    @Transactional
    @Change(level = Access.Level.TEAM_ADMIN, action = "issue token", target = "teams/{team}/tokens")
    public TokenView issue(String team, TokenRequest request, String createdBy) {
        return issueOf(team, request, createdBy);
    }

    /** Issues a platform-admin token; the answer is the only time the secret shows. */
    @Transactional
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "issue platform token", target = "tokens")
    public TokenView issuePlatform(TokenRequest request, String createdBy) {
        return issueOf(null, request, createdBy);
    }

    private TokenView issueOf(String team, TokenRequest request, String createdBy) {
        List<Violation> violations = new ArrayList<>(validation.check(request));
        Instant now = clock.instant();
        if (request != null && request.expiresAt() != null && !request.expiresAt().isAfter(now)) {
            violations.add(new Violation("expiresAt", "must be in the future"));
        }
        if (team != null && request != null && request.role() == null) {
            violations.add(new Violation("role", "must be MEMBER or TEAM_ADMIN"));
        }
        if (team == null && request != null && request.wantsAccessKey()) {
            violations.add(new Violation("accessKey", "only a team's token carries an access key: a signed call acts"
                    + " for the key's team"));
        }
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        String id = HexFormat.of().formatHex(random(ID_LENGTH / 2));
        String secret = Base64.getUrlEncoder().withoutPadding().encodeToString(random(30));
        byte[] salt = random(16);
        String role = team == null ? "PLATFORM_ADMIN" : request.role().name();
        String accessKeyId = null;
        String secretAccessKey = null;
        byte[] sealed = null;
        String sealedUnder = null;
        if (request.wantsAccessKey()) {
            sealedUnder = secrets.keyId().orElseThrow(() -> new ConflictException("this server cannot keep access"
                    + " keys: set spillover.webhooks.secret-key (SPILLOVER_WEBHOOKS_SECRET_KEY), the key that seals"
                    + " stored secrets"));
            accessKeyId = accessKeyId();
            secretAccessKey = Base64.getEncoder().withoutPadding().encodeToString(random(30));
            sealed = secrets.seal(secretAccessKey.getBytes(StandardCharsets.UTF_8));
        }
        var stored = new ApiTokens.StoredToken(id, team, role, request.name(), salt, hash(salt, secret), now, createdBy,
                request.expiresAt(), null, null, accessKeyId, sealed, sealedUnder);
        tokens.insert(stored);
        return stored.view(PREFIX + id + "_" + secret, secretAccessKey);
    }

    /**
     * The access key of a usable team token, with its secret opened; empty when no token carries it, or its token is
     * revoked or expired, or its secret was sealed under a key this instance does not have (logged).
     */
    public Optional<SigningKey> signingKey(String accessKeyId) {
        Instant now = clock.instant();
        Optional<ApiTokens.StoredToken> found = tokens.findByAccessKey(accessKeyId).filter(t -> t.usable(now));
        if (found.isEmpty()) {
            return Optional.empty();
        }
        ApiTokens.StoredToken token = found.get();
        String secret;
        try {
            secret = new String(secrets.open(token.accessKeySecret(), token.accessKeySealedUnder()),
                    StandardCharsets.UTF_8);
        } catch (IllegalStateException e) {
            log.warn("Access key {} of token {} cannot be used: {}", accessKeyId, token.id(), e.getMessage());
            return Optional.empty();
        }
        if (token.lastUsedAt() == null || token.lastUsedAt().isBefore(now.minusSeconds(60))) {
            tokens.touch(token.id(), now);
        }
        return Optional.of(new SigningKey(accessKeyId, secret, token.team(), new Caller("token:" + token.id(), false,
                Map.of(token.team(), TeamRole.valueOf(token.role())))));
    }

    public List<TokenView> list(String team) {
        return tokens.of(team).stream().map(t -> t.view(null)).toList();
    }

    @Transactional
    @Change(level = Access.Level.TEAM_ADMIN, action = "revoke token", target = "teams/{team}/tokens/{id}")
    public void revoke(String team, String id) {
        revokeOf(team, id);
    }

    @Transactional
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "revoke platform token", target = "tokens/{id}")
    public void revokePlatform(String id) {
        revokeOf(null, id);
    }

    private void revokeOf(String team, String id) {
        if (!tokens.revoke(team, id, clock.instant())) {
            throw new NotFoundException("no token " + id);
        }
    }

    /** Stores the configured bootstrap secret as a platform-admin token, replacing an earlier one. */
    void bootstrap(String secret) {
        byte[] salt = random(16);
        tokens.upsertSecret(new ApiTokens.StoredToken(BOOTSTRAP_ID, null, "PLATFORM_ADMIN", "bootstrap", salt,
                hash(salt, secret), clock.instant(), "SPILLOVER_BOOTSTRAP_ADMIN_TOKEN", null, null, null));
    }

    /** The caller a presented token stands for; empty when it is unknown, wrong, revoked or expired. */
    Optional<Caller> authenticate(String presented) {
        String id = BOOTSTRAP_ID;
        String secret = presented;
        if (presented.startsWith(PREFIX) && presented.length() > PREFIX.length() + ID_LENGTH + 1
                && presented.charAt(PREFIX.length() + ID_LENGTH) == '_') {
            id = presented.substring(PREFIX.length(), PREFIX.length() + ID_LENGTH);
            secret = presented.substring(PREFIX.length() + ID_LENGTH + 1);
        }
        Instant now = clock.instant();
        String checkedSecret = secret;
        Optional<ApiTokens.StoredToken> found = tokens.find(id)
                .filter(t -> MessageDigest.isEqual(t.hash(), hash(t.salt(), checkedSecret)))
                .filter(t -> t.revokedAt() == null)
                .filter(t -> t.expiresAt() == null || t.expiresAt().isAfter(now));
        // the last use is noted at most once a minute: the row just read says whether this use is due
        found.filter(t -> t.lastUsedAt() == null || t.lastUsedAt().isBefore(now.minusSeconds(60)))
                .ifPresent(t -> tokens.touch(t.id(), now));
        return found.map(t -> t.team() == null
                ? new Caller("token:" + t.id(), true, Map.of())
                : new Caller("token:" + t.id(), false, Map.of(t.team(), TeamRole.valueOf(t.role()))));
    }

    static byte[] hash(byte[] salt, String secret) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(salt);
            return digest.digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** {@code SPLK} and 16 of AWS's key id characters (A to Z, 2 to 7): 80 random bits. */
    private static String accessKeyId() {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
        var id = new StringBuilder(ACCESS_KEY_PREFIX);
        for (int i = 0; i < 16; i++) {
            id.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return id.toString();
    }

    private static byte[] random(int bytes) {
        byte[] value = new byte[bytes];
        RANDOM.nextBytes(value);
        return value;
    }
}
