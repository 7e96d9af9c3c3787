package io.spillover.profiles;

import io.spillover.security.Callers;
import io.spillover.system.Access;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/teams/{team}/profiles")
class ProfileController {

    private final ProfileService profiles;
    private final Callers callers;

    ProfileController(ProfileService profiles, Callers callers) {
        this.profiles = profiles;
        this.callers = callers;
    }

    @GetMapping
    @Access(Access.Level.MEMBER)
    List<ProfileView> list(@PathVariable String team) {
        return profiles.list(team);
    }

    @GetMapping("/{profile}")
    @Access(Access.Level.MEMBER)
    ProfileView get(@PathVariable String team, @PathVariable String profile) {
        return profiles.get(team, profile);
    }

    /** Saves a new version: 201 for the first, 200 after. */
    @PutMapping("/{profile}")
    @Access(Access.Level.TEAM_ADMIN)
    ResponseEntity<ProfileView> put(@PathVariable String team, @PathVariable String profile,
                                    @RequestBody ProfileDefinition definition) {
        ProfileView saved = profiles.save(team, profile, definition, callers.name());
        return ResponseEntity.status(saved.version() == 1 ? HttpStatus.CREATED : HttpStatus.OK).body(saved);
    }

    @DeleteMapping("/{profile}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Access(Access.Level.TEAM_ADMIN)
    void delete(@PathVariable String team, @PathVariable String profile) {
        profiles.delete(team, profile);
    }
}
