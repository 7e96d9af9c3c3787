package io.spillover.jobs;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

/** Jobs by team: every query names the team it reads. */
interface Jobs extends JpaRepository<Job, UUID> {

    Optional<Job> findByTeamAndName(String team, String name);

    Optional<Job> findByTeamAndClientToken(String team, String clientToken);

    List<Job> findByTeamAndClientTokenIn(String team, Collection<String> clientTokens);

    Optional<Job> findByProviderJobName(String providerJobName);

    Page<Job> findByTeam(String team, Pageable pageable);

    Page<Job> findByTeamAndStatus(String team, JobStatus status, Pageable pageable);

    /** Which of the names the team's jobs already have. */
    @Query("SELECT j.name FROM Job j WHERE j.team = :team AND j.name IN :names")
    List<String> namesTaken(String team, Collection<String> names);

    List<Job> findByTeamInAndStatusInOrderByCreatedAt(Collection<String> teams, Collection<JobStatus> statuses);
}
