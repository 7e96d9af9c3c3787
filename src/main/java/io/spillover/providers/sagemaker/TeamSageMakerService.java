package io.spillover.providers.sagemaker;

import io.spillover.providers.SageMakerVpc;
import io.spillover.providers.TeamSageMakerDefaults;
import io.spillover.providers.TeamSageMakerSettings;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import io.spillover.shared.Violation;
import io.spillover.system.Access;
import io.spillover.system.Change;
import io.spillover.system.Validation;
import io.spillover.tenancy.TeamService;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Each team's SageMaker defaults in {@code team_sagemaker}. Made whatever the active provider, so an admin can set
 * teams up before switching to SageMaker and the console shows them; the role is checked against the platform's
 * allow-list when it is set, whatever the provider.
 */
@Service
class TeamSageMakerService implements TeamSageMakerDefaults {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<TreeMap<String, String>> TAGS = new TypeReference<>() {
    };

    private final JdbcClient jdbc;
    private final TeamService teams;
    private final Validation validation;
    private final RoleAllowList roles;
    private final Clock clock;

    TeamSageMakerService(JdbcClient jdbc, TeamService teams, Validation validation, SageMakerProperties properties,
                         Clock clock) {
        this.jdbc = jdbc;
        this.teams = teams;
        this.validation = validation;
        this.roles = new RoleAllowList(properties.allowedRoleArns());
        this.clock = clock;
    }

    @Override
    @Transactional(readOnly = true)
    public TeamSageMakerSettings of(String team) {
        requireTeam(team);
        return read(team);
    }

    @Override
    @Transactional(readOnly = true)
    public Map<String, TeamSageMakerSettings> all() {
        var all = new TreeMap<String, TeamSageMakerSettings>();
        jdbc.sql("SELECT * FROM team_sagemaker").query(rs -> {
            all.put(rs.getString("team"), settings(rs));
        });
        return all;
    }

    @Override
    @Transactional
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "set sagemaker settings", target = "teams/{team}/sagemaker")
    public TeamSageMakerSettings put(String team, TeamSageMakerSettings settings) {
        requireTeam(team);
        List<Violation> violations = new ArrayList<>(validation.check(settings));
        boolean roleShaped = violations.stream().noneMatch(v -> v.field().equals("roleArn"));
        if (settings != null && settings.roleArn() != null && roleShaped && !roles.allows(team, settings.roleArn())) {
            violations.add(new Violation("roleArn", roles.refusal(team, settings.roleArn())));
        }
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        SageMakerVpc vpc = settings.vpcConfig();
        jdbc.sql("""
                        INSERT INTO team_sagemaker (team, role_arn, output_s3_uri, security_group_ids, subnets, kms_key_id,
                                                    tags, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?)
                        ON CONFLICT (team) DO UPDATE SET role_arn = excluded.role_arn,
                            output_s3_uri = excluded.output_s3_uri, security_group_ids = excluded.security_group_ids,
                            subnets = excluded.subnets, kms_key_id = excluded.kms_key_id, tags = excluded.tags,
                            updated_at = excluded.updated_at""")
                .params(team, settings.roleArn(), settings.outputS3Uri(),
                        vpc == null ? null : vpc.securityGroupIds().toArray(String[]::new),
                        vpc == null ? null : vpc.subnets().toArray(String[]::new), settings.kmsKeyId(),
                        JSON.writeValueAsString(new TreeMap<>(settings.tags())),
                        Timestamp.from(clock.instant()))
                .update();
        return read(team);
    }

    /** The team's settings, {@link TeamSageMakerSettings#NONE} when it has none; the team is not looked for. */
    TeamSageMakerSettings read(String team) {
        return jdbc.sql("SELECT * FROM team_sagemaker WHERE team = ?").param(team)
                .query((rs, n) -> settings(rs)).optional().orElse(TeamSageMakerSettings.NONE);
    }

    RoleAllowList roles() {
        return roles;
    }

    private void requireTeam(String team) {
        if (!teams.exists(team)) {
            throw new NotFoundException("no team " + team);
        }
    }

    private static TeamSageMakerSettings settings(ResultSet rs) throws SQLException {
        List<String> groups = strings(rs.getArray("security_group_ids"));
        List<String> subnets = strings(rs.getArray("subnets"));
        return new TeamSageMakerSettings(rs.getString("role_arn"), rs.getString("output_s3_uri"),
                groups == null ? null : new SageMakerVpc(groups, subnets), rs.getString("kms_key_id"),
                JSON.readValue(rs.getString("tags"), TAGS));
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? null : List.of((String[]) array.getArray());
    }
}
