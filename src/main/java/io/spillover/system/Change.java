package io.spillover.system;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A service method that changes Spillover's state, the one the console and the API both call. Before it
 * runs, the caller must hold {@link #level()} (a team-scoped level takes the team from the method's
 * {@code team} parameter, as {@link Access} takes it from the path); each call leaves one audit record,
 * written in the transaction that makes the change, naming who did {@link #action()} to {@link #target()}.
 * Calls Spillover makes itself, outside any request (seeding at startup, scheduled syncs), are neither
 * checked nor audited.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Change {

    /** Who may make the change. */
    Access.Level level();

    /** What is done, in words: {@code set quotas}. */
    String action();

    /**
     * What it is done to: a path whose {@code {name}} parts are the method's arguments of that name (or a
     * record component of one, {@code {definition.name}}), e.g. {@code teams/{team}/quotas}.
     */
    String target();
}
